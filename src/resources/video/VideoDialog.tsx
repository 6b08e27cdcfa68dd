import { Suspense } from 'react';
import type { RaRecord } from 'react-admin';
import { videoResource } from '../../../schemas/video';
import type { DialogFormProps } from '../../components/DialogForm';
import { lazyPart, usePreloadWhenIdle } from '../../components/lazyPart';

/** The add/edit dialog (react-admin's forms, the schema's inputs): fetched once a member who may use it sees the screen. */
const DialogForm = lazyPart('VideoDialog/DialogForm', () => import('../../components/DialogForm').then((m) => m.DialogForm));

/**
 * The video's 详情 dialog settings, one for 视频学习编辑 and 在线视频: the schema's inputs, a new
 * video in the tab's category (its date the schema's default, today).
 */
export function videoForm(vdtCode: string): Pick<DialogFormProps, 'fixed'> {
  return { fixed: { VdtCode: vdtCode } };
}

/** Fetches the dialog once the screen is shown and the browser is idle. */
export function PreloadVideoDialog() {
  usePreloadWhenIdle(DialogForm);
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
