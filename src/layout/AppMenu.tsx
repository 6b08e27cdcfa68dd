import { memo, useDeferredValue } from 'react';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem, Tooltip } from '@mui/material';
import { Menu, useSidebarState } from 'react-admin';
import { Link, useLocation, type Location } from 'react-router-dom';
import { MENU_GROUPS, type MenuEntry } from '../../schemas/index';
import { canViewModule, useMember } from '../access/useMember';
import { MenuIcon } from './menuIcons';

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * react-admin's MenuItemLink matches the path only, so the four catalogues (same path, another
 * `type`) would all light up: the current entry is decided here, query included.
 */
export function isCurrent(entry: Pick<MenuEntry, 'to' | 'match'>, location: Pick<Location, 'pathname' | 'search'>): boolean {
  if (entry.match?.some((p) => under(location.pathname, p))) return true;
  const target = new URL(entry.to, 'http://app');
  // Exact path: /Knowledge/TYKJ must not light up on /Knowledge/TYKJ/ClassifyManage.
  if (location.pathname !== target.pathname) return false;
  const query = new URLSearchParams(location.search);
  // A missing `type` means type 0, as on the legacy routes.
  return [...target.searchParams].every(([k, v]) => (query.get(k) ?? '0') === v);
}

/**
 * One entry. Memoised, as the menu is: react-admin re-renders the layout as the session's queries
 * settle (three passes on a page load), and the entries' MUI items are most of its components.
 */
const AppMenuItem = memo(function AppMenuItem({ entry, open }: { entry: MenuEntry; open: boolean }) {
  const location = useLocation();
  const current = isCurrent(entry, location);
  const link = (
    <MenuItem
      component={Link}
      to={entry.to}
      selected={current}
      aria-current={current ? 'page' : undefined}
      sx={{ color: current ? 'text.primary' : 'text.secondary' }}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        <MenuIcon name={entry.icon} />
      </ListItemIcon>
      <ListItemText primary={entry.label} />
    </MenuItem>
  );
  // With the sidebar folded only icons show: the label moves to a tooltip.
  return open ? link : <Tooltip title={entry.label} placement="right">{link}</Tooltip>;
});

/** The menu of the declarations (MENU_GROUPS), showing only what the member may view. */
export const AppMenu = memo(function AppMenu() {
  const { member } = useMember();
  const [open] = useSidebarState();
  // The entries (most of the layout's components) render after the screen, in a render React may
  // interrupt: the first render of a page is the screen's, not the menu's.
  const entriesShown = useDeferredValue(true, false);
  // MUI's MenuList wants its items as direct children (no Fragments): one flat array.
  const items = (entriesShown ? MENU_GROUPS : []).flatMap((group) => {
    const entries = group.entries.filter((entry) => canViewModule(member, entry.module));
    if (entries.length === 0) return [];
    // A group of one entry of the same name needs no heading.
    const showHeader = open && !(group.entries.length === 1 && group.entries[0]?.label === group.label);
    return [
      ...(showHeader
        ? [
            <ListSubheader key={`group-${group.label}`} component="div" sx={{ lineHeight: '32px', mt: 1, bgcolor: 'transparent' }}>
              {group.label}
            </ListSubheader>,
          ]
        : []),
      ...entries.map((entry) => <AppMenuItem key={entry.to} entry={entry} open={open} />),
    ];
  });
  return (
    <Menu>
      {entriesShown && <Menu.DashboardItem primaryText="首页" />}
      {items}
    </Menu>
  );
});
