import { Box, CircularProgress, Typography } from '@mui/material';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';

/** The loading text of the tables. */
export const LOADING_TEXT = '拼命加载中';

export function ListLoading() {
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.5, py: 6 }}>
      {/* Decorative: the text beside it is what the status says. */}
      <CircularProgress size={24} aria-hidden />
      <Typography color="text.secondary">{LOADING_TEXT}</Typography>
    </Box>
  );
}

export function ListEmpty({ text = '暂无数据' }: { text?: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: 6, color: 'text.secondary' }}>
      <InboxOutlinedIcon sx={{ fontSize: 48, color: 'text.disabled' }} />
      <Typography>{text}</Typography>
    </Box>
  );
}
