import { Typography } from '@mui/material';
import { Login, LoginForm, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { APP_TITLE, documentTitle } from '../navigation';
import { useDocumentTitle } from '../util/useDocumentTitle';
import { safeAfterLoginPath } from './safeRedirect';

/**
 * react-admin's login card (labels from the Chinese messages) with the product's name. After login
 * it returns to the page first asked for, checked to be a path of this app (see safeRedirect.ts):
 * react-admin would otherwise navigate to whatever its location state holds. The browser's tab is
 * named after the login button (登录).
 */
export function LoginPage() {
  const location = useLocation();
  const translate = useTranslate();
  useDocumentTitle(documentTitle(translate('ra.auth.sign_in')));
  const redirectTo = safeAfterLoginPath(location.state, window.location.origin);
  return (
    <Login>
      <Typography variant="h6" component="h1" align="center" sx={{ mb: 1 }}>
        {APP_TITLE}
      </Typography>
      <LoginForm redirectTo={redirectTo} />
    </Login>
  );
}
