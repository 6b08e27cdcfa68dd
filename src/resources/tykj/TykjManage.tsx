import { ArticleManageScreen } from '../article/ArticleManage';

/** 统一口径管理: the /Xcx3/ articles (问题, 统一回答) under the /Xcx3/ classifications. */
export default function TykjManage() {
  return <ArticleManageScreen service="tykj" />;
}
