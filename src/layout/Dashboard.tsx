import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { MENU_ENTRIES } from '../../schemas/index';
import { canViewModule, useMember } from '../access/useMember';
import { APP_TITLE } from '../navigation';
import { MenuIcon } from './menuIcons';

/** Home: a greeting and the menu's entries this member may open. */
export function Dashboard() {
  const { member } = useMember();
  const entries = MENU_ENTRIES.filter((entry) => canViewModule(member, entry.module));
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        欢迎使用{APP_TITLE}{member ? `，${member.AuName}` : ''}
      </Typography>
      {member && entries.length === 0 && (
        <Typography color="text.secondary">您还没有任何模块的权限，请联系管理员分配权限。</Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', mt: 2 }}>
        {entries.map((entry) => (
          <Card key={entry.to} variant="outlined">
            <CardActionArea component={Link} to={entry.to}>
              <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                <MenuIcon name={entry.icon} />
                <Typography>{entry.label}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
