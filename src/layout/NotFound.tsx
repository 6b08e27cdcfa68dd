import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Typography } from '@mui/material';
import { Loading, useAuthenticated, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';

/**
 * The 404 page (react-admin's `catchAll`), with the texts of ra.page.not_found and
 * ra.message.not_found as they are: react-admin's own page appends a half-width full stop to the
 * message and sets a Latin-only font.
 */
export function NotFound() {
  const translate = useTranslate();
  const navigate = useNavigate();
  // As react-admin's page: an unknown path asks for a session like any other.
  const { isPending } = useAuthenticated();
  if (isPending) return <Loading />;
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <SearchOffIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography variant="h5" component="h1" sx={{ mt: 2 }}>
        {translate('ra.page.not_found')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {translate('ra.message.not_found')}
      </Typography>
      <Button variant="outlined" sx={{ mt: 3 }} onClick={() => navigate(-1)}>
        {translate('ra.action.back')}
      </Button>
    </Box>
  );
}
