// The app's screens as staff think of them: the menu groups, each entry's path and
// the module whose view code (2) shows it. Paths the legacy product leaves open are chosen here, once.
import type { ComponentType } from 'react';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import CategoryIcon from '@mui/icons-material/Category';
import CollectionsBookmarkIcon from '@mui/icons-material/CollectionsBookmark';
import DescriptionIcon from '@mui/icons-material/Description';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import GavelIcon from '@mui/icons-material/Gavel';
import HistoryIcon from '@mui/icons-material/History';
import LanguageIcon from '@mui/icons-material/Language';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import PeopleIcon from '@mui/icons-material/People';
import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';
import type { ScreenModule } from './access/useMember';

export interface ScreenEntry {
  label: string;
  /** Where the menu item goes (path and, for the catalogues, the query). */
  to: string;
  module: ScreenModule;
  icon: ComponentType;
  /** Further path prefixes under which the item shows as the current one. */
  match?: string[];
}

export interface ScreenGroup {
  label: string;
  items: ScreenEntry[];
}

/** Article document types (query or path `type`). */
export const ARTICLE_TYPES = ['标准图集', '法律法规', '造价刊物', '公司通用文档'] as const;

/** A route's `type`: a non-negative integer, 0 when missing or malformed. */
export function toPageType(value: string | null | undefined): number {
  if (value === null || value === undefined || !/^\d{1,2}$/.test(value)) return 0;
  return Number(value);
}

const ARTICLE_ICONS = [CollectionsBookmarkIcon, GavelIcon, MenuBookIcon, DescriptionIcon];

export const PATHS = {
  video: '/video',
  videoView: '/Knowledge/VideoView',
  videoDetails: '/Knowledge/VideoView/Details',
  videoType: '/videoType',
  articleCatalogue: '/Knowledge/Article/Catalogue',
  articleManage: '/Knowledge/Article/Manage',
  articleClassify: '/Knowledge/Article/ClassifyManage',
  tykj: '/Knowledge/TYKJ',
  tykjClassify: '/Knowledge/TYKJ/ClassifyManage',
  tykjManage: '/Knowledge/TYKJ/Manage',
  useweb: '/useweb',
  member: '/member',
  auditLog: '/auditLog',
} as const;

export const MENU: ScreenGroup[] = [
  {
    label: '视频',
    items: [
      { label: '视频学习编辑', to: PATHS.video, module: 'video', icon: VideoLibraryIcon },
      { label: '在线视频', to: PATHS.videoView, module: 'videoView', icon: OndemandVideoIcon, match: [PATHS.videoView] },
      { label: '视频分类', to: PATHS.videoType, module: 'videoType', icon: CategoryIcon },
    ],
  },
  {
    label: '文章',
    items: [
      ...ARTICLE_TYPES.map((label, type) => ({
        label,
        to: `${PATHS.articleCatalogue}?type=${type}`,
        module: 'article' as const,
        icon: ARTICLE_ICONS[type] ?? DescriptionIcon,
      })),
      { label: '文章目录管理', to: `${PATHS.articleManage}?type=0`, module: 'article', icon: FolderOpenIcon, match: [PATHS.articleManage] },
      {
        label: '分类管理',
        to: `${PATHS.articleClassify}/0`,
        module: 'classify',
        icon: AccountTreeIcon,
        match: [PATHS.articleClassify, PATHS.tykjClassify],
      },
    ],
  },
  {
    label: '统一口径',
    items: [
      { label: '统一口径', to: PATHS.tykj, module: 'tykj', icon: QuestionAnswerIcon },
      { label: '统一口径管理', to: PATHS.tykjManage, module: 'tykj', icon: FolderOpenIcon },
    ],
  },
  { label: '常用网站', items: [{ label: '常用网站管理', to: PATHS.useweb, module: 'useweb', icon: LanguageIcon }] },
  {
    label: '系统管理',
    items: [
      { label: '成员管理', to: PATHS.member, module: 'admin', icon: PeopleIcon },
      { label: '操作日志', to: PATHS.auditLog, module: 'admin', icon: HistoryIcon },
    ],
  },
];
