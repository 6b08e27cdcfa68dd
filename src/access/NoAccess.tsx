import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

/** Shown for a deep link to a screen the member may not view: a page, never a redirect loop. */
export function NoAccess() {
  return (
    <Box role="alert" sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <LockOutlinedIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography variant="h5" component="h1" sx={{ mt: 2 }}>
        无权限
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        您没有访问此页面的权限，请联系管理员分配权限。
      </Typography>
      <Button component={Link} to="/" variant="outlined" sx={{ mt: 3 }}>
        返回首页
      </Button>
    </Box>
  );
}
