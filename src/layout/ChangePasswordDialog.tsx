// The 修改密码 dialog: the call is UpdateOwnPassword (docs/api.md), the current password, then the new
// one twice. The passwords are checked as the server checks them (its body schema,
// schemas/validation.ts ownPasswordBodySchema) before anything is sent; the server's own refusals
// (a wrong current password) come back under their inputs.
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, PasswordInput, useDataProvider, useLogoutIfAccessDenied, useNotify } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { FIELD_MESSAGES } from '../../schemas/fields';
import { OWN_PASSWORD_CALL } from '../../schemas/validation';
import type { LegacyDataProvider } from '../dataProvider/index';
import { callBodyErrors, toFormErrors, type FormErrors as CheckErrors } from '../components/formValidation';
import type { FormErrors } from '../http/index';
import { CHANGE_PASSWORD_TITLE, PASSWORD_CHANGED, PASSWORDS_DIFFER } from './ChangePassword';

/** The whole form: the call's body as the server checks it, and the confirmation, which stays here. */
function validate(values: FieldValues): CheckErrors {
  const confirm = values.ConfirmPassword as unknown;
  const confirmation: CheckErrors =
    confirm === undefined || confirm === null || confirm === ''
      ? { ConfirmPassword: FIELD_MESSAGES.required }
      : confirm !== values.NewPassword
        ? { ConfirmPassword: PASSWORDS_DIFFER }
        : {};
  const body = { OldPassword: values.OldPassword as unknown, NewPassword: values.NewPassword as unknown };
  return { ...confirmation, ...toFormErrors(callBodyErrors(OWN_PASSWORD_CALL, body)) };
}

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
      <Form onSubmit={submit} validate={validate} noValidate>
        <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column' }}>
          <PasswordInput source="OldPassword" label="原密码" isRequired autoComplete="current-password" helperText={false} />
          <PasswordInput source="NewPassword" label="新密码" isRequired autoComplete="new-password" helperText={false} />
          <PasswordInput source="ConfirmPassword" label="确认新密码" isRequired autoComplete="new-password" helperText={false} />
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
