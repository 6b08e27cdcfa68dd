import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SubdirectoryArrowRightIcon from '@mui/icons-material/SubdirectoryArrowRight';
import { Box, Tab, Tabs } from '@mui/material';
import { Button } from 'react-admin';
import { RowButton } from '../../components/RowButton';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ARTICLE_TYPES } from '../../../schemas/standardArticle';
import { classifyResource, ROOT_CODE, tykjClassifyResource } from '../../../schemas/standardClassify';
import { useAccess } from '../../access/useMember';
import { SchemaList } from '../../components/SchemaList';
import { pathOf } from '../../navigation';
import { toPageType } from '../../util/pageType';

export type ClassifyService = 'article' | 'tykj';

/** This file, as the descriptors name it (`component`). */
const SCREEN = 'classify/ClassifyManage';

/** Tabs switching between the catalogues' classifications and the unified answers' ones. */
function TypeTabs({ service, type }: { service: ClassifyService; type: number }) {
  const current = service === 'tykj' ? 'tykj' : String(type);
  // This screen on its two declared paths: the catalogues' (type in the path) and the answers'.
  const articlePath = pathOf(SCREEN, { service: 'article' });
  const tykjPath = pathOf(SCREEN, { service: 'tykj' });
  return (
    <Tabs value={current} variant="scrollable" aria-label="分类类型" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      {ARTICLE_TYPES.map((label, i) => (
        <Tab key={label} label={label} value={String(i)} component={Link} to={`${articlePath}/${i}`} />
      ))}
      <Tab label="统一口径" value="tykj" component={Link} to={`${tykjPath}?type=0`} />
    </Tabs>
  );
}

/**
 * 分类管理 on both legacy routes: /Knowledge/Article/ClassifyManage/:type (Xcx1) and
 * /Knowledge/TYKJ/ClassifyManage?type= (Xcx3). `code` in the query is the parent shown.
 */
export default function ClassifyManage({ service }: { service: ClassifyService }) {
  const descriptor = service === 'tykj' ? tykjClassifyResource : classifyResource;
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const can = useAccess(descriptor.resource);

  const type = toPageType(service === 'tykj' ? search.get('type') : params.type);
  const code = search.get('code') || ROOT_CODE;
  const isChild = code !== ROOT_CODE;

  const nextLevel = (scCode: string) => {
    const query = new URLSearchParams(location.search);
    query.set('code', scCode);
    navigate(`${location.pathname}?${query.toString()}`);
  };

  // One step back in history; a deep link opened in a new tab has none: go up to the top level.
  const back = () => {
    if (location.key !== 'default') return navigate(-1);
    const query = new URLSearchParams(location.search);
    query.delete('code');
    const rest = query.toString();
    return navigate(rest ? `${location.pathname}?${rest}` : location.pathname, { replace: true });
  };

  return (
    <Box>
      <TypeTabs service={service} type={type} />
      <SchemaList
        // A new route (type, parent) is a new list: first page, fresh request.
        key={`${descriptor.resource}:${type}:${code}`}
        descriptor={descriptor}
        filter={{ ScFatherCode: code, type }}
        actions={
          isChild && (
            <Button label="返回" onClick={back}>
              <ArrowBackIcon />
            </Button>
          )
        }
        rowActions={(record) =>
          !isChild &&
          can('nextLevel') && (
            <RowButton label="查看下一级" icon={<SubdirectoryArrowRightIcon />} onClick={() => nextLevel(String(record.ScCode))} />
          )
        }
        // The parent is the level shown, the type the tab's: the inputs are the schema's others.
        form={{ fixed: { ScFatherCode: code, type } }}
      />
    </Box>
  );
}
