import { useEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type MouseEvent } from 'react';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteIcon from '@mui/icons-material/Delete';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import {
  Box,
  Button,
  FormHelperText,
  FormLabel,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { useDataProvider, useInput, useNotify, type Validator } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { parseFileList } from '../../schemas/fileList';
import type { FileEntry, UploadKind } from '../../schemas/types';
import type { LegacyDataProvider } from '../dataProvider/index';
import { useFileName, useRememberFileName } from './fileNames';
import { FileLink, isFileUrl } from './SafeLink';
import { BUSY_MESSAGE, formatSize, formatSpeed, uploadFile, uploadStore, type UploadProgress } from './uploadQueue';

/** What each kind accepts by default (the server checks again where the bytes arrive). */
export const DEFAULT_ACCEPT: Record<UploadKind, string> = {
  image: 'image/png,image/jpeg,image/webp',
  video: 'video/mp4,.mp4',
  handout: '.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.zip,.rar,.7z,.txt',
};

export interface UploadInputProps {
  source: string;
  label: string;
  kind: UploadKind;
  accept?: string;
  /** The field holds a JSON text list of { name, url } (VdEnclosure, SaPdfUrl) instead of one URL. */
  multiple?: boolean;
  /** Also store the uploaded file's Title in this field (single mode). */
  titleSource?: string;
  helperText?: string;
  validate?: Validator | Validator[];
}

function ProgressLine({ progress }: { progress: UploadProgress }) {
  return (
    <Box role="status" aria-live="polite" sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
        {progress.fileName}（{formatSize(progress.size)}）
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <LinearProgress variant="determinate" value={progress.percent} sx={{ flex: 1 }} aria-label="上传进度" />
        <Typography variant="caption" sx={{ minWidth: 110, textAlign: 'right' }}>
          {formatSpeed(progress.speed)} · {progress.percent}%
        </Typography>
      </Box>
      <Button size="small" onClick={() => uploadStore.abort()}>
        取消上传
      </Button>
    </Box>
  );
}

/**
 * Uploads through SignUpload (docs/api.md, "Uploads") and keeps the result in the form: the FileUrl, or
 * with `multiple` a JSON text list of { name: Title, url: FileUrl }. One upload at a time app-wide.
 */
export function UploadInput({ source, label, kind, accept, multiple = false, titleSource, helperText, validate }: UploadInputProps) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const notify = useNotify();
  const form = useFormContext();
  const { id, field, fieldState } = useInput({ source, ...(validate ? { validate } : {}) });
  const progress = useSyncExternalStore(uploadStore.subscribe, uploadStore.getSnapshot);
  // Whether the running upload (if any) was started here, to show its progress in this place.
  const [mine, setMine] = useState(false);
  const mineRef = useRef(false);
  // Closing the dialog mid-upload stops the transfer: its result would have nowhere to go.
  useEffect(() => () => {
    if (mineRef.current) uploadStore.abort();
  }, []);

  const value: unknown = field.value;
  const files: FileEntry[] = multiple ? parseFileList(value) : [];
  const url = !multiple && typeof value === 'string' ? value : '';
  // A single file is shown by the name it was uploaded with (the field holds only its URL).
  const fileName = useFileName(url);
  const rememberName = useRememberFileName();

  const refuseWhenBusy = (event: MouseEvent) => {
    if (uploadStore.isBusy()) {
      event.preventDefault();
      notify(BUSY_MESSAGE, { type: 'warning' });
    }
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setMine(true);
    mineRef.current = true;
    try {
      const result = await uploadFile(dataProvider, file, kind);
      if (multiple) {
        field.onChange(JSON.stringify([...parseFileList(field.value), { name: result.Title, url: result.FileUrl }]));
      } else {
        rememberName(result.FileUrl, result.Title);
        field.onChange(result.FileUrl);
        if (titleSource) form.setValue(titleSource, result.Title, { shouldDirty: true });
      }
      field.onBlur();
    } catch (error) {
      notify(error instanceof Error ? error.message : '上传失败', { type: 'error' });
    } finally {
      mineRef.current = false;
      setMine(false);
    }
  };

  const removeFile = (index: number) => field.onChange(JSON.stringify(files.filter((_, i) => i !== index)));

  const inputId = `${id}-file`;
  return (
    <Box className={`ra-input ra-input-${source}`} sx={{ mb: 2 }}>
      <FormLabel htmlFor={inputId} sx={{ display: 'block', mb: 0.5 }}>
        {label}
      </FormLabel>

      {!multiple && url !== '' && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          {kind === 'image' && isFileUrl(url) && (
            <Box component="img" src={url} alt={label} sx={{ maxWidth: 240, maxHeight: 120, border: 1, borderColor: 'divider', borderRadius: 1 }} />
          )}
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            <FileLink url={url} name={fileName ?? url} />
          </Typography>
          <IconButton aria-label={`移除${label}`} onClick={() => field.onChange('')} size="small">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Box>
      )}

      {multiple && files.length > 0 && (
        <List dense disablePadding>
          {files.map((file, index) => (
            <ListItem
              key={`${file.url}-${index}`}
              disableGutters
              secondaryAction={
                <IconButton edge="end" aria-label={`删除 ${file.name}`} onClick={() => removeFile(index)} size="small">
                  <DeleteIcon fontSize="small" />
                </IconButton>
              }
            >
              <ListItemIcon sx={{ minWidth: 32 }}>
                <InsertDriveFileIcon fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={<FileLink url={file.url} name={file.name} />} />
            </ListItem>
          ))}
        </List>
      )}

      <Button component="label" variant="outlined" size="small" startIcon={<CloudUploadIcon />} onClick={refuseWhenBusy}>
        {multiple ? '添加文件' : url ? '重新上传' : '上传'}
        <input id={inputId} hidden type="file" accept={accept ?? DEFAULT_ACCEPT[kind]} onChange={onPick} />
      </Button>

      {mine && progress && <ProgressLine progress={progress} />}
      {(helperText || fieldState.error) && (
        <FormHelperText error={!!fieldState.error}>{fieldState.error?.message ?? helperText}</FormHelperText>
      )}
    </Box>
  );
}
