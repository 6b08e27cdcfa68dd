import { Suspense, useCallback, useState } from 'react';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Paper, Tab, Tabs, Typography } from '@mui/material';
import { Button, ListBase, type RaRecord } from 'react-admin';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { ARTICLE_TYPES, articleResource, tykjArticleResource } from '../../../schemas/standardArticle';
import { ROOT_CODE } from '../../../schemas/standardClassify';
import { useAccess } from '../../access/useMember';
import { DeleteWithConfirm } from '../../components/DeleteWithConfirm';
import { ExportButton } from '../../components/ExportButton';
import { RowButton } from '../../components/RowButton';
import { ROOT_NAME } from '../../components/tree/buildTree';
import { LazyCategoryTree as CategoryTree } from '../../components/tree/LazyCategoryTree';
import { useCategoryTree } from '../../components/tree/useCategoryTree';
import { ListSettled } from '../../components/ListSettled';
import { ZhPagination } from '../../components/ZhPagination';
import { lazyPart, usePreloadWhenIdle } from '../../components/lazyPart';
import { pathOf } from '../../navigation';
import { toPageType } from '../../util/pageType';
import { PANE_HEIGHT, SELECTED_TAB_SX } from './layout';
import { articleFilter, defaultSaType, manageColumns, prepareArticle } from './articleRules';
import { ArticleTable, ViewButton } from './ArticleTable';
import { useArticleView } from './ArticleView';

export type ArticleService = 'article' | 'tykj';

// The add/edit dialog and its inputs: fetched once the rows are shown, not before them.
const DialogForm = lazyPart('ArticleManage/DialogForm', () => import('../../components/DialogForm').then((m) => m.DialogForm));
const ArticleInputs = lazyPart('ArticleInputs', () => import('./ArticleInputs').then((m) => m.ArticleInputs));
const TykjInputs = lazyPart('TykjInputs', () => import('./ArticleInputs').then((m) => m.TykjInputs));

/** Document types of the management page (the 统一口径 articles have their own page). */
function TypeTabs({ type }: { type: number }) {
  const path = pathOf('article/ArticleManage');
  return (
    <Tabs value={String(type)} variant="scrollable" aria-label="文档类型" sx={SELECTED_TAB_SX}>
      {ARTICLE_TYPES.map((label, i) => (
        <Tab key={label} label={label} value={String(i)} component={Link} to={`${path}?type=${i}`} />
      ))}
    </Tabs>
  );
}

type Row = RaRecord & Record<string, unknown>;

function Manage({ service, type }: { service: ArticleService; type: number }) {
  const descriptor = service === 'tykj' ? tykjArticleResource : articleResource;
  // The classifications are asked for once the articles have answered (ListSettled).
  const [treeWanted, setTreeWanted] = useState(false);
  const wantTree = useCallback(() => setTreeWanted(true), [setTreeWanted]);
  const { tree, isPending, error } = useCategoryTree(service === 'tykj' ? 'tykjClassify' : 'classify', type, treeWanted);
  // The first root node (全部) is selected on load.
  const [selected, setSelected] = useState<string>(ROOT_CODE);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const can = useAccess(descriptor.resource);
  const { view, dialogs } = useArticleView(descriptor.resource);
  usePreloadWhenIdle(DialogForm, service === 'tykj' ? TykjInputs : ArticleInputs);

  // The root's name is known before the tree arrives: a page rendered by the server shows it.
  const selectedName = selected === ROOT_CODE ? ROOT_NAME : (tree?.byCode.get(selected)?.name ?? '');
  const canAdd = selected !== ROOT_CODE && can('create');

  return (
    <Box sx={{ display: 'flex', gap: 2, height: PANE_HEIGHT, minHeight: 420, mt: 1 }}>
      <Box sx={{ width: 280, flexShrink: 0, minHeight: 0 }}>
        <CategoryTree title="文章分类" root={tree?.root} selected={selected} onSelect={setSelected} isPending={isPending} error={error} />
      </Box>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 2, py: 1, minHeight: 52, borderBottom: 1, borderColor: 'divider' }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }} aria-live="polite">
            {selectedName}
          </Typography>
          <ExportButton descriptor={descriptor} filter={articleFilter(selected, type)} />
          {canAdd && (
            // A catalogue adds files (新增文件); 统一口径 adds answers (新增).
            <Button label={service === 'tykj' ? '新增' : '新增文件'} variant="contained" onClick={() => setEditing('new')}>
              <AddIcon />
            </Button>
          )}
        </Box>
        <ListBase
          // Selecting another category reloads the table from its first page.
          key={`${type}|${selected}`}
          resource={descriptor.resource}
          filter={articleFilter(selected, type)}
          perPage={descriptor.pageSize}
          disableSyncWithLocation
          storeKey={false}
          disableAuthentication // the member is checked once, by the screen's guard (see SchemaList)
        >
          <ListSettled onSettled={wantTree} />
          <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
            <ArticleTable
              descriptor={descriptor}
              columns={manageColumns()}
              bulkDelete
              actions={(record) => (
                <>
                  {can('show', record) && <ViewButton onClick={() => view(record)} />}
                  {can('edit', record) && (
                    <RowButton label="编辑" icon={<EditIcon />} onClick={() => setEditing(record)} />
                  )}
                  {can('delete', record) && <DeleteWithConfirm resource={descriptor.resource} record={record} />}
                </>
              )}
            />
          </Box>
          <ZhPagination />
        </ListBase>
      </Paper>
      {dialogs}
      {editing && (
        <Suspense fallback={null}>
          <DialogForm
            descriptor={descriptor}
            record={editing === 'new' ? undefined : editing}
            onClose={() => setEditing(null)}
            inputs={service === 'tykj' ? <TykjInputs descriptor={descriptor} /> : <ArticleInputs descriptor={descriptor} type={type} />}
            // A new article belongs to the selected category; an edited one keeps its own.
            createDefaults={{ ScCode: selected, SaType: service === 'tykj' ? 1 : defaultSaType(type), IsCommon: 0 }}
            transform={prepareArticle}
          />
        </Suspense>
      )}
    </Box>
  );
}

/**
 * 文章目录管理 and the 统一口径 articles' management: the tree, the selected
 * category's articles (15 a page), 新增文件 under a category, the 900px 文章目录详情 dialog.
 */
export function ArticleManageScreen({ service }: { service: ArticleService }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const type = toPageType(params.get('type'));
  return (
    <Box>
      {service === 'article' && <TypeTabs type={type} />}
      {/* A route change (even the same menu item again) resets the selection and reloads the tree. */}
      <Manage key={location.key} service={service} type={type} />
    </Box>
  );
}

export default function ArticleManage() {
  return <ArticleManageScreen service="article" />;
}
