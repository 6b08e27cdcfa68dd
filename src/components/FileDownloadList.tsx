// A list of files, each with 下载: the body of the 讲义下载 and 文件下载 dialogs.
import DownloadIcon from '@mui/icons-material/Download';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { Button, List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import type { FileEntry } from '../../schemas/types';

export function FileDownloadList({ files, onDownload }: { files: readonly FileEntry[]; onDownload: (file: FileEntry) => void }) {
  return (
    <List dense disablePadding>
      {files.map((file, index) => (
        <ListItem
          key={`${file.url}-${index}`}
          disableGutters
          secondaryAction={
            <Button size="small" variant="outlined" startIcon={<DownloadIcon />} aria-label={`下载 ${file.name}`} onClick={() => onDownload(file)}>
              下载
            </Button>
          }
          sx={{ pr: 12 }}
        >
          <ListItemIcon sx={{ minWidth: 32 }}>
            <InsertDriveFileOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={file.name} slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }} />
        </ListItem>
      ))}
    </List>
  );
}
