// Screens of later issues: their routes and permission checks exist now (menu and deep links
// work), the content says 建设中.
import { useSearchParams } from 'react-router-dom';
import { UnderConstruction } from './UnderConstruction';
import { ARTICLE_TYPES, toPageType } from '../navigation';

export function VideoEditScreen() {
  return <UnderConstruction title="视频学习编辑" />;
}

export function VideoViewScreen() {
  return <UnderConstruction title="在线视频" />;
}

/** /Knowledge/VideoView/Details?Id=&VdtCode= */
export function VideoDetailsScreen() {
  return <UnderConstruction title="视频详情" />;
}

/** Title by the query type (SPEC.md 2.7): 0 标准图集, 1 法律法规, 2 造价刊物, 3 公司通用文档. */
export function ArticleCatalogueScreen() {
  const [search] = useSearchParams();
  return <UnderConstruction title={ARTICLE_TYPES[toPageType(search.get('type'))] ?? '文章目录'} />;
}

export function ArticleManageScreen() {
  return <UnderConstruction title="文章目录管理" />;
}

export function TykjScreen() {
  return <UnderConstruction title="统一口径" />;
}
