import { memo } from 'react';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem, Tooltip } from '@mui/material';
import { Menu, useSidebarState } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { MENU_GROUPS, type MenuEntry } from '../../schemas/index';
import { canViewModule, useMember } from '../access/useMember';
import { HOME_TITLE, isCurrent } from '../navigation';
import { MenuIcon } from './menuIcons';

/**
 * One entry. Memoised, as the menu is: react-admin re-renders the layout as the session's queries
 * settle (three passes on a page load), and the entries' MUI items are most of its components.
 * Whether it is the current entry comes from the menu: an entry reading the address itself would
 * be drawn again on every change of it (下一页 of a list that keeps its page in the address).
 */
const AppMenuItem = memo(function AppMenuItem({ entry, open, current }: { entry: MenuEntry; open: boolean; current: boolean }) {
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
  const location = useLocation();
  // MUI's MenuList wants its items as direct children (no Fragments): one flat array. The entries
  // render with the page (a page the server renders arrives with its menu, painted at once).
  const items = MENU_GROUPS.flatMap((group) => {
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
      ...entries.map((entry) => <AppMenuItem key={entry.to} entry={entry} open={open} current={isCurrent(entry, location)} />),
    ];
  });
  return (
    <Menu>
      <Menu.DashboardItem primaryText={HOME_TITLE} />
      {items}
    </Menu>
  );
});
