// 修改密码: an entry of the user menu (app bar, beside 登出) and its dialog, for every member. The
// call is UpdateOwnPassword (docs/api.md): the current password, then the new one twice; the
// server's field errors come back under their inputs.
import { useState } from 'react';
import LockResetIcon from '@mui/icons-material/LockReset';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, ListItemIcon, ListItemText, MenuItem, type MenuItemProps } from '@mui/material';
import {
  Form,
  PasswordInput,
  required,
  useDataProvider,
  useLogoutIfAccessDenied,
  useNotify,
  useUserMenu,
  type Validator,
} from 'react-admin';
import { memberResource } from '../../schemas/member';
import type { LegacyDataProvider } from '../dataProvider/index';
import { validatorsFor } from '../components/schemaFields';
import type { FormErrors } from '../http/index';
import type { FieldValues } from 'react-hook-form';

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

// The new password follows the rules of a member's password (schemas/member.ts), and is required.
const newPasswordRules: Validator[] = [required(), ...validatorsFor(memberResource, 'Password', true)];
const sameAsNew: Validator = (value: unknown, values: FieldValues) =>
  value && value !== values.NewPassword ? PASSWORDS_DIFFER : undefined;

function errorsOf(error: unknown): FormErrors | undefined {
  const body = (error as { body?: { errors?: unknown } } | null)?.body;
  const errors = body?.errors;
  return errors && typeof errors === 'object' ? (errors as FormErrors) : undefined;
}

/**
 * The 修改密码 dialog. While the change is being sent it cannot be closed (neither Escape, a click
 * beside it, nor 取消); a backdrop click never closes it, so typed passwords are not lost by a slip.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const [sending, setSending] = useState(false);

  const submit = async (values: FieldValues): Promise<FormErrors | undefined> => {
    setSending(true);
    try {
      // The confirmation stays here: it was checked before sending.
      await dataProvider.call('Ajax', 'UpdateOwnPassword', { OldPassword: values.OldPassword, NewPassword: values.NewPassword });
    } catch (error) {
      setSending(false);
      // A session that ended meanwhile: the login page, as for any other call.
      if (await logoutIfAccessDenied(error)) return undefined;
      const fieldErrors = errorsOf(error);
      if (fieldErrors) return fieldErrors;
      notify(error instanceof Error && error.message ? error.message : '请求失败，请稍后重试', { type: 'error' });
      return undefined;
    }
    setSending(false);
    notify(PASSWORD_CHANGED, { type: 'success' });
    onClose();
    return undefined;
  };

  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (sending || reason === 'backdropClick') return;
        onClose();
      }}
      aria-labelledby="change-password-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="change-password-title">{CHANGE_PASSWORD_TITLE}</DialogTitle>
      <Form onSubmit={submit} noValidate>
        <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column' }}>
          <PasswordInput
            source="OldPassword"
            label="原密码"
            validate={required()}
            autoComplete="current-password"
            helperText={false}
          />
          <PasswordInput
            source="NewPassword"
            label="新密码"
            validate={newPasswordRules}
            autoComplete="new-password"
            helperText={false}
          />
          <PasswordInput
            source="ConfirmPassword"
            label="确认新密码"
            validate={[required(), sameAsNew]}
            autoComplete="new-password"
            helperText={false}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={sending}>
            取消
          </Button>
          <Button type="submit" variant="contained" disabled={sending}>
            确定
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
