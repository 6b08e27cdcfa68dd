import { useState } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { useGetOne, type RaRecord } from 'react-admin';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { LazyRichTextView } from './LazyRichTextView';
import { ListLoading } from './ListStates';
import { RowButton } from './RowButton';
import { fieldTitle } from './schemaFields';

/** The body read with the record's own call: a list answer leaves rich text out (detailOnlyFields). */
function Body({ descriptor, field, record }: { descriptor: ResourceDescriptor; field: string; record: RaRecord }) {
  const inRow = typeof record[field] === 'string';
  const { data, isPending, error } = useGetOne(descriptor.resource, { id: record.id }, { enabled: !inRow });
  if (inRow) return <LazyRichTextView html={String(record[field])} />;
  if (isPending) return <ListLoading />;
  if (error) return <>{error instanceof Error ? error.message : '加载失败'}</>;
  return <LazyRichTextView html={typeof data?.[field] === 'string' ? data[field] : ''} />;
}

/** A rich-text cell: 预览 opens the field's text, sanitised (RichTextView), in a dialog. */
export function RichTextPreview({ descriptor, field, record }: { descriptor: ResourceDescriptor; field: string; record: RaRecord }) {
  const [open, setOpen] = useState(false);
  const title = fieldTitle(descriptor, field);
  const titleId = `preview-${descriptor.resource}-${field}-${String(record.id)}`;
  return (
    <>
      <RowButton label="预览" icon={<VisibilityIcon />} aria-label={`预览${title}`} onClick={() => setOpen(true)} />
      {open && (
        <Dialog open onClose={() => setOpen(false)} maxWidth="md" fullWidth aria-labelledby={titleId}>
          <DialogTitle id={titleId} sx={{ pr: 6 }}>
            {title}
            <IconButton aria-label="关闭" onClick={() => setOpen(false)} sx={{ position: 'absolute', right: 8, top: 8 }}>
              <CloseIcon />
            </IconButton>
          </DialogTitle>
          <DialogContent dividers>
            <Body descriptor={descriptor} field={field} record={record} />
          </DialogContent>
        </Dialog>
      )}
    </>
  );
}
