import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { PageTitle } from './PageTitle';
import { Link } from 'react-router-dom';
import { canViewModule, useMember } from '../access/useMember';
import { MENU } from '../navigation';

/** Home: a greeting and the screens this member may open. */
export function Dashboard() {
  const { member } = useMember();
  const entries = MENU.flatMap((g) => g.items).filter((item) => canViewModule(member, item.module));
  return (
    <Box sx={{ p: 2 }}>
      <PageTitle title="首页" />
      <Typography variant="h5" component="h1" gutterBottom>
        欢迎使用知识学习后台{member ? `，${member.AuName}` : ''}
      </Typography>
      {member && entries.length === 0 && (
        <Typography color="text.secondary">您还没有任何模块的权限，请联系管理员分配权限。</Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', mt: 2 }}>
        {entries.map((item) => {
          const Icon = item.icon;
          return (
            <Card key={item.to} variant="outlined">
              <CardActionArea component={Link} to={item.to}>
                <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                  <Icon />
                  <Typography>{item.label}</Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          );
        })}
      </Box>
    </Box>
  );
}
