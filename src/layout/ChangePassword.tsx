// 修改密码: an entry of the user menu (app bar, beside 登出), for every member. Its dialog is
// ./ChangePasswordDialog, loaded on demand (AppLayout.tsx): it checks the passwords with the
// server's validators, which the first screen does not load.
import LockResetIcon from '@mui/icons-material/LockReset';
import { ListItemIcon, ListItemText, MenuItem, type MenuItemProps } from '@mui/material';
import { useUserMenu } from 'react-admin';

export const CHANGE_PASSWORD_TITLE = '修改密码';
export const PASSWORD_CHANGED = '密码已修改';
export const PASSWORDS_DIFFER = '两次输入的新密码不一致';

/** 修改密码 in the user menu: closes the menu and asks the app bar to open the dialog. */
export function ChangePasswordMenuItem({ onOpen, ...props }: MenuItemProps & { onOpen: () => void }) {
  const userMenu = useUserMenu();
  return (
    <MenuItem
      {...props}
      onClick={() => {
        userMenu?.onClose();
        onOpen();
      }}
    >
      <ListItemIcon>
        <LockResetIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{CHANGE_PASSWORD_TITLE}</ListItemText>
    </MenuItem>
  );
}
