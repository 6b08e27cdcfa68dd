import { Suspense, useSyncExternalStore, type ReactNode } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton } from '@mui/material';
import {
  CreateBase,
  EditBase,
  Form,
  useEditContext,
  useNotify,
  useRefresh,
  useSaveContext,
  type RaRecord,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { detailOnlyFields, type ResourceDescriptor } from '../../schemas/descriptor';
import { ListLoading } from './ListStates';
import { SUCCESS_MESSAGE } from './messages';
import { SchemaInputs } from './SchemaInputs';
import { uploadStore } from './uploadQueue';
import { editableFields, schemaDefaults } from './schemaFields';

export { SUCCESS_MESSAGE };

export interface DialogFormProps {
  descriptor: ResourceDescriptor;
  /** The row being edited; none means a new record. */
  record?: RaRecord | undefined;
  onClose: () => void;
  /** Inputs; default every editable field of the schema. */
  inputs?: ReactNode;
  /** Values a new record starts with, over the schema's defaults (parent code, page type…). */
  createDefaults?: Record<string, unknown>;
  /** Last change to the values before they are sent. */
  transform?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** Dialog title; default the descriptor's. */
  title?: string;
}

/**
 * 添加 without an Id, 保存 with one; blocked while the request runs (no double submit) and while
 * a file is still uploading (its URL is not in the form yet).
 */
function SubmitButton({ label }: { label: string }) {
  const { isSubmitting } = useFormState();
  const { saving } = useSaveContext();
  const uploading = useSyncExternalStore(uploadStore.subscribe, uploadStore.getSnapshot) !== null;
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting || !!saving || uploading}>
      {label}
    </Button>
  );
}

/**
 * The form once the record holds every field a list leaves out (detailOnlyFields): a row of the
 * list, or a copy of it in the cache, would open the form with an empty body, and saving it would
 * store that empty body.
 */
function WhenComplete({ fields, children }: { fields: readonly string[]; children: ReactNode }) {
  const { record } = useEditContext();
  const complete = record !== undefined && fields.every((field) => field in record);
  return complete ? children : <ListLoading />;
}

/** Sends the schema's editable fields only: what the server owns stays the server's. */
function pickEditable(descriptor: ResourceDescriptor, data: Record<string, unknown>): Record<string, unknown> {
  const keep = new Set(editableFields(descriptor));
  return Object.fromEntries(Object.entries(data).filter(([key]) => keep.has(key)));
}

/**
 * The add/edit dialog of a descriptor: its width and title, closed only by 取消 or the close icon
 * (never Escape or a backdrop click). Pessimistic, so that the server's field errors
 * come back onto their inputs; on success 操作成功!, close, and reload the list on its page.
 */
export function DialogForm({ descriptor, record, onClose, inputs, createDefaults, transform, title }: DialogFormProps) {
  const notify = useNotify();
  const refresh = useRefresh();
  const isEdit = record?.id !== undefined && record.id !== null;
  // Bodies a list leaves out are read with the record's own call before the form opens.
  const detailOnly = detailOnlyFields(descriptor);
  const rowIsRecord = detailOnly.length === 0;

  const onSuccess = () => {
    notify(SUCCESS_MESSAGE, { type: 'success' });
    onClose();
    refresh();
  };
  const prepare = (data: Record<string, unknown>) => pickEditable(descriptor, transform ? transform(data) : data);

  const body = (
    <Form>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column' }}>
        {/* A screen's own inputs may still be loading (they are fetched with the dialog). */}
        <Suspense fallback={<ListLoading />}>{inputs ?? <SchemaInputs descriptor={descriptor} />}</Suspense>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <SubmitButton label={isEdit ? '保存' : '添加'} />
      </DialogActions>
    </Form>
  );

  const dialogTitle = title ?? descriptor.dialog.title;
  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason === 'backdropClick' || reason === 'escapeKeyDown') return;
        onClose();
      }}
      disableEscapeKeyDown
      maxWidth={false}
      aria-labelledby="dialog-form-title"
      slotProps={{ paper: { sx: { width: descriptor.dialog.width, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="dialog-form-title" sx={{ pr: 6 }}>
        {dialogTitle}
        <IconButton aria-label="关闭" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {isEdit ? (
        <EditBase
          resource={descriptor.resource}
          id={record.id}
          mutationMode="pessimistic"
          mutationOptions={{ onSuccess }}
          redirect={false}
          transform={prepare}
          // The row is the record, unless the list left fields out: resources with a single-record
          // call refresh it in the background, or read it first when the row is incomplete.
          queryOptions={
            !rowIsRecord && descriptor.calls.one
              ? { refetchOnMount: 'always' }
              : descriptor.calls.one
                ? { initialData: record }
                : { initialData: record, enabled: false }
          }
        >
          {rowIsRecord ? body : <WhenComplete fields={detailOnly}>{body}</WhenComplete>}
        </EditBase>
      ) : (
        <CreateBase
          resource={descriptor.resource}
          record={{ ...schemaDefaults(descriptor), ...createDefaults }}
          mutationOptions={{ onSuccess }}
          redirect={false}
          transform={prepare}
        >
          {body}
        </CreateBase>
      )}
    </Dialog>
  );
}
