import { Suspense } from 'react';
import { Box, Typography } from '@mui/material';
import { dashboardSections, visibleCountedTypes } from '../../schemas/dashboard';
import { useMember } from '../access/useMember';
import { lazyPart } from '../components/lazyPart';
import { APP_TITLE } from '../navigation';

/** The sections with their figures: a chunk of their own, fetched with home's page (screens.tsx preloadScreen). */
export const DashboardPanels = lazyPart('DashboardPanels', () => import('./dashboard/DashboardPanels').then((m) => m.DashboardPanels));

/** Home: a greeting, then the figures of the modules this member may view. */
export function Dashboard() {
  const { member } = useMember();
  const sections = dashboardSections(member);
  const types = member ? visibleCountedTypes(member).length : 0;
  const any = Object.values(sections).some(Boolean);
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        欢迎使用{APP_TITLE}{member ? `，${member.AuName}` : ''}
      </Typography>
      {member && !any && (
        <Typography color="text.secondary">
          {Object.keys(member.Modules ?? {}).some((m) => member.Modules?.[m]) || member.IsAdmin === 1
            ? '首页暂无您可查看的统计，请从左侧菜单进入各模块。'
            : '您还没有任何模块的权限，请联系管理员分配权限。'}
        </Typography>
      )}
      {any && (
        <Suspense fallback={null}>
          <DashboardPanels sections={sections} types={types} />
        </Suspense>
      )}
    </Box>
  );
}
