import { zhCN } from '@mui/material/locale';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's theme with MUI's Chinese texts (pagination, autocomplete, alerts…). */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  components: { ...defaultTheme.components, ...zhCN.components },
};
