import { useState } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import { useDelete, useNotify, useRefresh, type RaRecord } from 'react-admin';
import { Prompt } from './Prompt';
import { RowButton } from './RowButton';

export const DELETE_QUESTION = '此操作将永久删除该记录, 是否继续?';

/** The message of a refused call, as the server worded it. */
export function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : '删除失败';
}

/**
 * Delete after a confirmation: 提示 / 此操作将永久删除该记录, 是否继续? with
 * 确定 / 取消. Pessimistic: the row stays until the server agrees; a refusal (409…) is notified.
 * The delete call and its dialog are set up on the first click, not for every row of every page.
 */
export function DeleteWithConfirm({ resource, record, label = '删除' }: { resource: string; record: RaRecord; label?: string }) {
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  return (
    <>
      <RowButton
        label={label}
        color="error"
        icon={<DeleteIcon />}
        onClick={() => {
          setAsked(true);
          setOpen(true);
        }}
      />
      {asked && <DeleteDialog resource={resource} record={record} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}

function DeleteDialog({ resource, record, open, onClose }: { resource: string; record: RaRecord; open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [deleteOne, { isPending }] = useDelete();

  const confirm = () =>
    deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          onClose();
          notify('删除成功!', { type: 'success' });
          refresh();
        },
        onError: (error) => {
          onClose();
          notify(messageOf(error), { type: 'error' });
        },
      },
    );

  return <DeleteConfirm open={open} loading={isPending} onConfirm={confirm} onClose={onClose} />;
}

/** The confirmation before any delete: 提示, the question, 确定 / 取消. */
export function DeleteConfirm({ open, loading, onConfirm, onClose }: { open: boolean; loading: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
<Prompt open={open} loading={loading} question={DELETE_QUESTION} onConfirm={onConfirm} onClose={onClose} />
  );
}
