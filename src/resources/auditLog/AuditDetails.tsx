import CloseIcon from '@mui/icons-material/Close';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { AuditChange } from '../../../schemas/auditLog';
import { auditLogResource } from '../../../schemas/auditLog';
import { fieldTitle } from '../../components/schemaFields';
import { formatDate } from '../../i18n/dayjs';
import { useGetManyAggregate } from 'react-admin';
import { actionLabel, changeLabel, formatValue, referenceOfChange, resourceLabel } from './auditFormat';

export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export interface AuditEntryRecord {
  id: number | string;
  At?: string;
  AuName?: string;
  AuCode?: string;
  Action?: string;
  Resource?: string;
  RecordCode?: string;
  RecordName?: string;
  Changes?: AuditChange[];
}

const title = (field: string) => fieldTitle(auditLogResource, field);

/** A referenced record by its name, through the same getMany as the list's cell; its code while that loads or when it is gone. */
function ReferencedName({ target, code }: { target: NonNullable<ReturnType<typeof referenceOfChange>>; code: string }) {
  const { data } = useGetManyAggregate(target.resource, { ids: [code], meta: { idField: target.idField } });
  const name = data?.[0]?.[target.nameField];
  return <>{typeof name === 'string' && name !== '' ? name : code}</>;
}

/** One side of a change: its text, or a reference's name. */
function ChangeValue({ resource, change, side }: { resource: string; change: AuditChange; side: 'before' | 'after' }) {
  const target = referenceOfChange(resource, change);
  const value = side in change && !change.redacted ? change[side] : undefined;
  if (target && typeof value === 'string' && value !== '') return <ReferencedName target={target} code={value} />;
  return <>{formatValue(resource, change, side)}</>;
}

/** 操作详情: who did what and when, then each field before → after (read only). */
export function AuditDetails({ entry, onClose }: { entry: AuditEntryRecord; onClose: () => void }) {
  const resource = String(entry.Resource ?? '');
  const changes = Array.isArray(entry.Changes) ? entry.Changes : [];
  const summary: [string, string][] = [
    [title('At'), formatDate(entry.At, TIME_FORMAT)],
    [title('AuName'), entry.AuName ?? ''],
    [title('Action'), actionLabel(entry.Action)],
    [title('Resource'), resourceLabel(entry.Resource)],
    [title('RecordName'), entry.RecordName ?? ''],
    ...(entry.RecordCode ? [[title('RecordCode'), entry.RecordCode] as [string, string]] : []),
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      aria-labelledby="audit-details-title"
      slotProps={{ paper: { sx: { width: auditLogResource.dialog.width, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="audit-details-title" sx={{ pr: 6 }}>
        {auditLogResource.dialog.title}
        <IconButton aria-label="关闭" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}>
          {summary.map(([label, value]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        {changes.length === 0 ? (
          <Typography color="text.secondary">无字段变化</Typography>
        ) : (
          <Table size="small" aria-label={title('Changes')}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: '22%' }}>字段</TableCell>
                <TableCell>修改前</TableCell>
                <TableCell>修改后</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((change, i) => (
                <TableRow key={`${change.field}-${change.id ?? i}`}>
                  <TableCell component="th" scope="row">
                    {changeLabel(resource, change)}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <ChangeValue resource={resource} change={change} side="before" />
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <ChangeValue resource={resource} change={change} side="after" />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {changes.some((c) => c.truncated) && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            长文本只保留开头部分（以“…”结尾）。
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
