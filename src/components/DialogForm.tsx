import { Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
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
import { useBlocker } from 'react-router-dom';
import { detailOnlyFields, type ResourceDescriptor } from '../../schemas/descriptor';
import { ListLoading } from './ListStates';
import { Prompt } from './Prompt';
import { SUCCESS_MESSAGE } from './messages';
import { SchemaInputs } from './SchemaInputs';
import { leaveQuestion, uploadStore } from './uploadQueue';
import { formValidator, type FormErrors } from './formValidation';
import { editableFields, newRecordDefaults } from './schemaFields';

export { SUCCESS_MESSAGE };

export interface DialogFormProps {
  descriptor: ResourceDescriptor;
  /** The row being edited; none means a new record. */
  record?: RaRecord | undefined;
  onClose: () => void;
  /** Inputs; default the schema's form fields but the fixed ones. */
  inputs?: ReactNode;
  /** Values the screen sets itself (the tab's category, the tree's parent): a new record's, and no input. */
  fixed?: Record<string, unknown>;
  /** Values a new record starts with, over the schema's and the descriptor's defaults. */
  createDefaults?: Record<string, unknown>;
  /** Last change to the values before they are sent. */
  transform?: (data: Record<string, unknown>) => Record<string, unknown>;
  /**
   * A screen's own rules beyond the call's schema, which the dialog always checks (react-admin runs
   * no input's `validate` in a form validated as a whole). The schema's message wins on a field.
   */
  validate?: (values: Record<string, unknown>, context: { isEdit: boolean }) => FormErrors | undefined;
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
 * Leaving the dialog while one of its files uploads asks first (提示, 确定 / 取消): by 取消 or the
 * close icon, and by a route change (the browser's back button, a link). 确定 stops the upload
 * (what storage received is dropped) and leaves; 取消 stays and the upload goes on. Closing or
 * reloading the page is asked by the browser itself (./uploadQueue).
 */
function useLeaveGuard(onClose: () => void) {
  const [asking, setAsking] = useState(false);
  // Read when a navigation starts, not at render: an upload may have started since.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      uploadStore.isBusy() && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blocked = blocker.state === 'blocked';
  const requestClose = () => (uploadStore.isBusy() ? setAsking(true) : onClose());
  const confirm = (
    <Prompt
      open={asking || blocked}
      question={leaveQuestion(uploadStore.kind())}
      onConfirm={() => {
        uploadStore.abort();
        setAsking(false);
        if (blocked) blocker.proceed();
        else onClose();
      }}
      onClose={() => {
        setAsking(false);
        if (blocked) blocker.reset();
      }}
    />
  );
  return { requestClose, confirm };
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
 * (never Escape or a backdrop click), after 提示 while a file uploads. Pessimistic, so that the server's field errors
 * come back onto their inputs; on success 操作成功!, close, and reload the list on its page.
 */
export function DialogForm({ descriptor, record, onClose, inputs, fixed, createDefaults, transform, validate, title }: DialogFormProps) {
  const notify = useNotify();
  const refresh = useRefresh();
  const isEdit = record?.id !== undefined && record.id !== null;
  const { requestClose, confirm } = useLeaveGuard(onClose);
  // Bodies a list leaves out are read with the record's own call before the form opens.
  const detailOnly = detailOnlyFields(descriptor);
  const rowIsRecord = detailOnly.length === 0;

  const onSuccess = () => {
    notify(SUCCESS_MESSAGE, { type: 'success' });
    onClose();
    refresh();
  };
  const prepare = (data: Record<string, unknown>) => pickEditable(descriptor, transform ? transform(data) : data);
  // The body the dataProvider sends (an update's with its Id), checked as the server will check it.
  const schemaRules = formValidator(descriptor, isEdit ? 'update' : 'create', (values) =>
    isEdit ? { ...prepare(values), Id: record?.id } : prepare(values),
  );
  const validateForm = (values: Record<string, unknown>) => ({ ...validate?.(values, { isEdit }), ...schemaRules(values) });

  const body = (
    <Form validate={validateForm}>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column' }}>
        {/* A screen's own inputs may still be loading (they are fetched with the dialog). */}
        <Suspense fallback={<ListLoading />}>{inputs ?? <SchemaInputs descriptor={descriptor} fixed={Object.keys(fixed ?? {})} />}</Suspense>
      </DialogContent>
      <DialogActions>
        <Button onClick={requestClose}>取消</Button>
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
        requestClose();
      }}
      disableEscapeKeyDown
      maxWidth={false}
      aria-labelledby="dialog-form-title"
      slotProps={{ paper: { sx: { width: descriptor.dialog.width, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="dialog-form-title" sx={{ pr: 6 }}>
        {dialogTitle}
        <IconButton aria-label="关闭" onClick={requestClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
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
          record={{ ...newRecordDefaults(descriptor), ...createDefaults, ...fixed }}
          mutationOptions={{ onSuccess }}
          redirect={false}
          transform={prepare}
        >
          {body}
        </CreateBase>
      )}
      {confirm}
    </Dialog>
  );
}
