// The menu's icons by name (a descriptor's menu placement names one). Only the icons in use are
// imported: @mui/icons-material has thousands, and a name looked up at run time would pull them all.
// Adding an entity with a new icon name means adding it here (menuIcons.spec.ts says which).
import { createElement } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import AccountTree from '@mui/icons-material/AccountTree';
import Category from '@mui/icons-material/Category';
import CollectionsBookmark from '@mui/icons-material/CollectionsBookmark';
import Description from '@mui/icons-material/Description';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Gavel from '@mui/icons-material/Gavel';
import History from '@mui/icons-material/History';
import Language from '@mui/icons-material/Language';
import ManageSearch from '@mui/icons-material/ManageSearch';
import MenuBook from '@mui/icons-material/MenuBook';
import OndemandVideo from '@mui/icons-material/OndemandVideo';
import People from '@mui/icons-material/People';
import QuestionAnswer from '@mui/icons-material/QuestionAnswer';
import VideoLibrary from '@mui/icons-material/VideoLibrary';

type IconComponent = typeof SvgIcon;

export const MENU_ICONS: Readonly<Record<string, IconComponent>> = {
  AccountTree,
  Category,
  CollectionsBookmark,
  Description,
  FolderOpen,
  Gavel,
  History,
  Language,
  ManageSearch,
  MenuBook,
  OndemandVideo,
  People,
  QuestionAnswer,
  VideoLibrary,
};

/** The icon of that name; a plain document for a name not imported above (the spec fails on it). */
export function MenuIcon({ name }: { name: string }) {
  return createElement(MENU_ICONS[name] ?? Description);
}
