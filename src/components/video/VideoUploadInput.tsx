import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Alert, Box, Button, FormHelperText, LinearProgress, Typography } from '@mui/material';
import { InputHelperText, useDataProvider, useInput, useNotify, type Validator } from 'react-admin';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { useRememberFileName } from '../fileNames';
import { BUSY_MESSAGE, formatSize, formatSpeed, UploadBusyError, uploadStore, type UploadProgress } from '../uploadQueue';
import { checkVideoFile, VIDEO_REQUIREMENT } from './mp4Check';
import { uploadButtonProps, VideoUploadFrame } from './VideoUploadFrame';
import { startVideoUpload, UploadCancelled, type VideoUpload } from './videoUpload';

type Phase =
  | { name: 'idle' }
  | { name: 'checking'; fileName: string }
  | { name: 'uploading'; progress: UploadProgress; resumedBytes?: number }
  | { name: 'failed'; progress: UploadProgress; message: string };

function ProgressView({ progress, resumedBytes }: { progress: UploadProgress; resumedBytes?: number | undefined }) {
  return (
    <>
      <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
        {progress.fileName}（{formatSize(progress.size)}）
      </Typography>
      {resumedBytes !== undefined && resumedBytes > 0 && (
        <Typography variant="caption" color="text.secondary">
          继续上次的上传（已上传 {formatSize(resumedBytes)}）
        </Typography>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <LinearProgress variant="determinate" value={progress.percent} sx={{ flex: 1 }} aria-label="上传进度" />
        <Typography variant="caption" sx={{ minWidth: 120, textAlign: 'right' }}>
          {formatSpeed(progress.speed)} · {progress.percent}%
        </Typography>
      </Box>
    </>
  );
}

/**
 * The video of a record (VdUrl): checks the file in the browser (./mp4Check), then uploads it in
 * parts (./videoUpload) with name, size, speed and percentage, 取消, and 重试 after a failure.
 * Required: 请上传视频!. One upload at a time app-wide (请等待上传完成).
 */
export function VideoUploadInput({ source, label, validate }: { source: string; label: string; validate?: Validator[] }) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const notify = useNotify();
  const { id, field, fieldState } = useInput({ source, ...(validate ? { validate } : {}) });
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  // The name the file was uploaded with, not the storage key (a saved record holds only the URL).
  const rememberName = useRememberFileName();
  const uploadRef = useRef<VideoUpload | null>(null);
  // Closing the dialog mid-upload cancels it: its result would have nowhere to go.
  useEffect(() => () => uploadRef.current?.cancel(), []);

  const url = typeof field.value === 'string' ? field.value : '';
  // A failed upload waits for 重试 or 取消; choosing another file replaces it.
  const busy = phase.name === 'checking' || phase.name === 'uploading';

  const refuseWhenBusy = (event: MouseEvent) => {
    if (busy || uploadStore.isBusy()) {
      event.preventDefault();
      notify(BUSY_MESSAGE, { type: 'warning' });
    }
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (uploadStore.isBusy()) {
      notify(BUSY_MESSAGE, { type: 'warning' });
      return;
    }
    const previous = uploadRef.current;
    uploadRef.current = null;
    previous?.cancel();
    setPhase({ name: 'checking', fileName: file.name });
    const refusal = await checkVideoFile(file);
    if (refusal) {
      setPhase({ name: 'idle' });
      notify(refusal, { type: 'error', autoHideDuration: 8000 });
      return;
    }
    let upload: VideoUpload;
    try {
      upload = startVideoUpload(dataProvider, file, {
        progress: (progress) =>
          setPhase((p) => ({ name: 'uploading', progress, ...(p.name === 'uploading' && p.resumedBytes ? { resumedBytes: p.resumedBytes } : {}) })),
        failed: (message) =>
          setPhase((p) => ({
            name: 'failed',
            message,
            progress: p.name === 'uploading' || p.name === 'failed' ? p.progress : { fileName: file.name, size: file.size, loaded: 0, speed: 0, percent: 0 },
          })),
        resumed: (resumedBytes) =>
          setPhase({
            name: 'uploading',
            resumedBytes,
            progress: { fileName: file.name, size: file.size, loaded: resumedBytes, speed: 0, percent: Math.floor((resumedBytes / file.size) * 100) },
          }),
      });
    } catch (error) {
      setPhase({ name: 'idle' });
      notify(error instanceof UploadBusyError ? BUSY_MESSAGE : '上传失败', { type: 'warning' });
      return;
    }
    uploadRef.current = upload;
    setPhase({ name: 'uploading', progress: { fileName: file.name, size: file.size, loaded: 0, speed: 0, percent: 0 } });
    try {
      const result = await upload.done;
      rememberName(result.FileUrl, result.Title);
      field.onChange(result.FileUrl);
      field.onBlur();
      notify('视频上传成功', { type: 'success' });
    } catch (error) {
      if (!(error instanceof UploadCancelled)) notify(error instanceof Error ? error.message : '上传失败', { type: 'error' });
    } finally {
      // A replaced upload leaves the state to the one that replaced it.
      if (uploadRef.current === upload) {
        uploadRef.current = null;
        setPhase({ name: 'idle' });
      }
    }
  };

  const retry = () => {
    const upload = uploadRef.current;
    if (!upload || phase.name !== 'failed') return;
    try {
      setPhase({ name: 'uploading', progress: phase.progress });
      upload.retry();
    } catch (error) {
      setPhase(phase);
      notify(error instanceof UploadBusyError ? BUSY_MESSAGE : '上传失败', { type: 'warning' });
    }
  };

  const inputId = `${id}-file`;
  return (
    <VideoUploadFrame
      source={source}
      label={label}
      url={url}
      inputId={inputId}
      button={
        <Button component="label" {...uploadButtonProps} onClick={refuseWhenBusy} disabled={phase.name === 'checking'}>
          {url ? '重新上传视频' : '上传视频'}
          <input id={inputId} hidden type="file" accept="video/mp4,.mp4" onChange={onPick} />
        </Button>
      }
      status={
        <>
          {phase.name === 'checking' && (
            <Typography role="status" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              正在检查视频格式：{phase.fileName}
            </Typography>
          )}

          {phase.name === 'uploading' && (
            <Box role="status" aria-live="polite" sx={{ mt: 1 }}>
              <ProgressView progress={phase.progress} resumedBytes={phase.resumedBytes} />
              <Button size="small" onClick={() => uploadRef.current?.cancel()}>
                取消
              </Button>
            </Box>
          )}

          {phase.name === 'failed' && (
            <Box sx={{ mt: 1 }}>
              <ProgressView progress={phase.progress} />
              <Alert
                severity="error"
                sx={{ mt: 1 }}
                action={
                  <>
                    <Button color="inherit" size="small" onClick={retry}>
                      重试
                    </Button>
                    <Button color="inherit" size="small" onClick={() => uploadRef.current?.cancel()}>
                      取消
                    </Button>
                  </>
                }
              >
                {phase.message}
              </Alert>
            </Box>
          )}
        </>
      }
      helper={
        <FormHelperText error={fieldState.invalid}>
          <InputHelperText error={fieldState.error?.message} helperText={VIDEO_REQUIREMENT} />
        </FormHelperText>
      }
    />
  );
}
