import { Suspense, useMemo, useState, type ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Avatar, Box, Chip } from '@mui/material';
import { Button, DataTable, List, TopToolbar, useListContext, type RaRecord } from 'react-admin';
import type { ListColumn, ResourceDescriptor } from '../../schemas/descriptor';
import { FILE_URL_PATTERN } from '../../schemas/fields';
import { useAccess } from '../access/useMember';
import { formatDate } from '../i18n/dayjs';
import { DeferredRows } from './DeferredRows';
import { DeleteWithConfirm } from './DeleteWithConfirm';
import type { DialogFormProps } from './DialogForm';
import { lazyPart, usePreloadWhenIdle } from './lazyPart';
import { ListEmpty, ListLoading } from './ListStates';
import { RowButton } from './RowButton';
import { SafeLink } from './SafeLink';
import { columnRender, fieldTitle } from './schemaFields';
import { ZhPagination } from './ZhPagination';

type Row = RaRecord & Record<string, unknown>;

/** The add/edit dialog (react-admin's forms and inputs): fetched once the rows are shown. */
const DialogForm = lazyPart(() => import('./DialogForm').then((m) => m.DialogForm));

const FILE_URL = new RegExp(FILE_URL_PATTERN);

/** The permanent filter of a list: every row at once (All) when it has no pager. */
export function schemaListFilter(filter: Record<string, unknown> | undefined, paged: boolean): Record<string, unknown> | undefined {
  return paged ? filter : { ...filter, All: 1 };
}

/** One cell, rendered the way the descriptor (or the schema) says. */
export function renderCell(descriptor: ResourceDescriptor, column: ListColumn, record: Row): ReactNode {
  const value = record[column.field];
  switch (columnRender(descriptor, column)) {
    case 'flag': {
      const [on, off] = column.flagLabels ?? ['是', '否'];
      const isOn = value === 1 || value === true;
      return <Chip size="small" label={isOn ? on : off} color={isOn ? 'primary' : 'default'} variant={isOn ? 'filled' : 'outlined'} />;
    }
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDate(value, 'YYYY-MM-DD HH:mm');
    case 'link':
      return <SafeLink href={value} />;
    case 'image':
      return typeof value === 'string' && FILE_URL.test(value) ? (
        <Avatar variant="rounded" src={value} alt={fieldTitle(descriptor, column.field)} />
      ) : null;
    case 'number':
      return value === null || value === undefined ? '' : String(value);
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

export interface SchemaListProps {
  descriptor: ResourceDescriptor;
  /** Permanent list filters (parent code, page type…). */
  filter?: Record<string, unknown>;
  /** Columns; default the descriptor's listColumns. */
  columns?: readonly ListColumn[];
  /** Buttons shown before the add button in the top bar. */
  actions?: ReactNode;
  /** Label of the add button. */
  addLabel?: string;
  /** Row actions between 编辑 and 删除 (e.g. 查看下一级). */
  rowActions?: (record: Row) => ReactNode;
  /** false: every row at once (All=1) without a pager, as the websites list of 常用网站管理. */
  paged?: boolean;
  /** Dialog settings shared by add and edit (inputs, defaults of new records, transform). */
  form?: Pick<DialogFormProps, 'inputs' | 'createDefaults' | 'transform'>;
}

function Table({ descriptor, columns, rowActions, onEdit }: {
  descriptor: ResourceDescriptor;
  columns: readonly ListColumn[];
  rowActions?: (record: Row) => ReactNode;
  onEdit: (record: Row) => void;
}) {
  const { isPending } = useListContext();
  const can = useAccess(descriptor.resource);
  if (isPending) return <ListLoading />;
  // A member who may neither edit nor delete (nor anything else) gets no empty 操作 column.
  const hasActions = !!rowActions || can('edit') || can('delete');
  return (
    <DataTable bulkActionButtons={false} rowClick={false} empty={<ListEmpty />}>
      {columns.map((column) => (
        <DataTable.Col
          key={column.field}
          source={column.field}
          label={column.label ?? fieldTitle(descriptor, column.field)}
          disableSort
          render={(record: Row) => renderCell(descriptor, column, record)}
        />
      ))}
      {hasActions && (
        <DataTable.Col
          label="操作"
          render={(record: Row) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {can('edit', record) && (
                <RowButton label="编辑" icon={<EditIcon />} onClick={() => onEdit(record)} />
              )}
              {rowActions?.(record)}
              {can('delete', record) && <DeleteWithConfirm resource={descriptor.resource} record={record} />}
            </Box>
          )}
        />
      )}
    </DataTable>
  );
}

/**
 * A table generated from the schema and descriptor: its columns, 15 rows a page
 * with the legacy pager, 拼命加载中 / 暂无数据, and 编辑 / 删除 per row as the member's
 * permissions allow (ownership included); add and edit open the descriptor's dialog.
 */
export function SchemaList({
  descriptor,
  filter,
  columns = descriptor.listColumns,
  actions,
  addLabel = '新增',
  rowActions,
  form,
  paged = true,
}: SchemaListProps) {
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const can = useAccess(descriptor.resource);
  usePreloadWhenIdle(DialogForm);

  // The same element while its inputs stay: react-admin renders the list again as the session
  // settles, and the toolbar need not follow.
  const canCreate = can('create');
  const toolbar = useMemo(
    () => (
      <TopToolbar>
        {actions}
        {canCreate && (
          <Button label={addLabel} variant="contained" onClick={() => setEditing('new')}>
            <AddIcon />
          </Button>
        )}
      </TopToolbar>
    ),
    [actions, canCreate, addLabel],
  );
  const table = <Table descriptor={descriptor} columns={columns} rowActions={rowActions} onEdit={setEditing} />;

  return (
    <>
      <List
        resource={descriptor.resource}
        // The page's title is the app bar's (ScreenTitle), from the screen's declaration.
        title={false}
        perPage={descriptor.pageSize}
        filter={schemaListFilter(filter, paged)}
        pagination={paged ? <ZhPagination /> : false}
        actions={toolbar}
        empty={false}
        exporter={false}
        // The legacy routes carry their own query (type, code): the list keeps its state in memory.
        disableSyncWithLocation
        storeKey={false}
        // The screen's guard (RequireModule) has the member before the screen renders, a refused
        // session (401) logs out (authProvider.checkError), and the server checks every call: the
        // list's own second check only held its request back.
        disableAuthentication
      >
        {paged ? table : <DeferredRows>{table}</DeferredRows>}
      </List>
      {editing && (
        <Suspense fallback={null}>
          <DialogForm
            descriptor={descriptor}
            record={editing === 'new' ? undefined : editing}
            onClose={() => setEditing(null)}
            {...form}
          />
        </Suspense>
      )}
    </>
  );
}
