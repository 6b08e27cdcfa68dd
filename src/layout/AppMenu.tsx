import { memo } from 'react';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem, Tooltip } from '@mui/material';
import { Menu, useSidebarState } from 'react-admin';
import { Link, useLocation, type Location } from 'react-router-dom';
import { canViewModule, useMember } from '../access/useMember';
import { MENU, type ScreenEntry } from '../navigation';

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * react-admin's MenuItemLink matches the path only, so the four catalogues (same path, another
 * `type`) would all light up: the current item is decided here, query included.
 */
export function isCurrent(item: ScreenEntry, location: Pick<Location, 'pathname' | 'search'>): boolean {
  if (item.match?.some((p) => under(location.pathname, p))) return true;
  const target = new URL(item.to, 'http://app');
  // Exact path: /Knowledge/TYKJ must not light up on /Knowledge/TYKJ/ClassifyManage.
  if (location.pathname !== target.pathname) return false;
  const query = new URLSearchParams(location.search);
  // A missing `type` means type 0, as on the legacy routes.
  return [...target.searchParams].every(([k, v]) => (query.get(k) ?? '0') === v);
}

function AppMenuItem({ item, open }: { item: ScreenEntry; open: boolean }) {
  const location = useLocation();
  const current = isCurrent(item, location);
  const Icon = item.icon;
  const link = (
    <MenuItem
      component={Link}
      to={item.to}
      selected={current}
      aria-current={current ? 'page' : undefined}
      sx={{ color: current ? 'text.primary' : 'text.secondary' }}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        <Icon />
      </ListItemIcon>
      <ListItemText primary={item.label} />
    </MenuItem>
  );
  // With the sidebar folded only icons show: the label moves to a tooltip.
  return open ? link : <Tooltip title={item.label} placement="right">{link}</Tooltip>;
}

/**
 * The menu grouped as staff think of it, showing only what the member may view. Memoised:
 * react-admin's Layout re-renders it with every change of its own (the session arriving, the
 * loading indicator, the title), and its dozen MUI items cost tens of ms a pass on a small CPU.
 */
export const AppMenu = memo(function AppMenu() {
  const { member } = useMember();
  const [open] = useSidebarState();
  // MUI's MenuList wants its items as direct children (no Fragments): one flat array.
  const entries = MENU.flatMap((group) => {
    const items = group.items.filter((item) => canViewModule(member, item.module));
    if (items.length === 0) return [];
    const showHeader = open && !(group.items.length === 1 && group.items[0]?.label === group.label);
    return [
      ...(showHeader
        ? [
            <ListSubheader key={`group-${group.label}`} component="div" sx={{ lineHeight: '32px', mt: 1, bgcolor: 'transparent' }}>
              {group.label}
            </ListSubheader>,
          ]
        : []),
      ...items.map((item) => <AppMenuItem key={item.to} item={item} open={open} />),
    ];
  });
  return (
    <Menu>
      <Menu.DashboardItem primaryText="首页" />
      {entries}
    </Menu>
  );
});
