import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Typography } from '@mui/material';
import { Title } from 'react-admin';

/** Screens of later issues: their routes exist (deep links work), the content comes later. */
export function UnderConstruction({ title }: { title: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: 8 }}>
      <Title title={title} />
      <ConstructionIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography variant="h5" component="h1" sx={{ mt: 2 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        建设中
      </Typography>
    </Box>
  );
}
