import { Typography } from '@mui/material';
import { Login, LoginForm } from 'react-admin';

/** react-admin's login card (labels from the Chinese messages) with the product's name. */
export function LoginPage() {
  return (
    <Login>
      <Typography variant="h6" component="h1" align="center" sx={{ mb: 1 }}>
        知识学习后台
      </Typography>
      <LoginForm />
    </Login>
  );
}
