import { Suspense } from 'react';
import type { RaRecord } from 'react-admin';
import { videoResource } from '../../../schemas/video';
import type { DialogFormProps } from '../../components/DialogForm';
import { lazyPart, usePreloadWhenIdle } from '../../components/lazyPart';
import { dayjs } from '../../i18n/dayjs';

/** The add/edit dialog (react-admin's forms): fetched once a member who may use it sees the screen. */
const DialogForm = lazyPart(() => import('../../components/DialogForm').then((m) => m.DialogForm));
/** The dialog's inputs (Uppy, the MP4 check): fetched with the dialog, not with the screen. */
const VideoInputs = lazyPart(() => import('./VideoInputs').then((m) => m.VideoInputs));

/**
 * The video's 详情 dialog settings, one for 视频学习编辑 and 在线视频: the video form, and a new
 * video in the tab's category, dated today unless changed.
 */
export function videoForm(vdtCode: string): Pick<DialogFormProps, 'inputs' | 'createDefaults'> {
  return { inputs: <VideoInputs />, createDefaults: { VdtCode: vdtCode, VdTime: dayjs().format('YYYY-MM-DD') } };
}

/** Fetches the dialog and its inputs once the screen is shown and the browser is idle. */
export function PreloadVideoDialog() {
  usePreloadWhenIdle(DialogForm, VideoInputs);
  return null;
}

/** The 600px 详情 dialog of a video (none: a new one in the category), as on 视频学习编辑. */
export function VideoDialog({ vdtCode, record, onClose }: { vdtCode: string; record: RaRecord | undefined; onClose: () => void }) {
  return (
    <Suspense fallback={null}>
      <DialogForm descriptor={videoResource} record={record} onClose={onClose} {...videoForm(vdtCode)} />
    </Suspense>
  );
}
