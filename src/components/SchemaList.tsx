import { Suspense, useCallback, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Avatar, Box, Chip, type ChipProps } from '@mui/material';
import {
  Button,
  DataTable,
  List,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  TextField,
  TextInput,
  TopToolbar,
  useListContext,
  type RaRecord,
} from 'react-admin';
import { listFields, type ListColumn, type ResourceDescriptor } from '../../schemas/descriptor';
import { parseFileList } from '../../schemas/fileList';
import { useAccess } from '../access/useMember';
import { formatDate } from '../i18n/dayjs';
import { RowCheckboxLabels, useBulkDelete } from './BulkDelete';
import { DeferredRows } from './DeferredRows';
import { DeleteWithConfirm } from './DeleteWithConfirm';
import { ListExportButton } from './ExportButton';
import type { DialogFormProps } from './DialogForm';
import { lazyPart, usePreloadWhenIdle } from './lazyPart';
import { ListEmpty, ListLoading } from './ListStates';
import { RichTextPreview } from './RichTextPreview';
import { RowButton } from './RowButton';
import { FileLink, isFileUrl, SafeLink } from './SafeLink';
import { choiceLabel, choicesOf, fieldKind, fieldSchema, fieldTitle, referenceOf, referenceTarget } from './schemaFields';
import { SearchBar, type AppliedSearch } from './SearchBar';
import { ZhPagination } from './ZhPagination';

type Row = RaRecord & Record<string, unknown>;

/** The add/edit dialog (react-admin's forms and inputs): fetched once the rows are shown. */
const DialogForm = lazyPart('SchemaList/DialogForm', () => import('./DialogForm').then((m) => m.DialogForm));

/** The permanent filter of a list: every row at once (All) when it has no pager. */
export function schemaListFilter(filter: Record<string, unknown> | undefined, paged: boolean): Record<string, unknown> | undefined {
  return paged ? filter : { ...filter, All: 1 };
}

/** Tag colours of a choice's values, in the schema's order. */
const CHOICE_COLOURS: readonly ChipProps['color'][] = ['default', 'primary', 'success', 'warning', 'info', 'secondary', 'error'];

const textOf = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A reference's cell: the referenced record's name (react-admin's ReferenceField over getMany). */
function ReferenceName({ descriptor, field, record }: { descriptor: ResourceDescriptor; field: string; record: Row }) {
  const target = referenceTarget(referenceOf(descriptor, field)!);
  return (
    <ReferenceField
      source={field}
      record={record}
      reference={target.resource}
      link={false}
      queryOptions={{ meta: { idField: target.idField } }}
      emptyText=""
    >
      <TextField source={target.nameField} />
    </ReferenceField>
  );
}

/** One cell, rendered the way the field's kind calls for (schemaFields.ts fieldKind). */
export function renderCell(descriptor: ResourceDescriptor, column: ListColumn, record: Row): ReactNode {
  const { field } = column;
  const value = record[field];
  const schema = fieldSchema(descriptor, field);
  switch (fieldKind(descriptor, field)) {
    case 'flag': {
      const isOn = Number(value) === 1;
      return <Chip size="small" label={choiceLabel(schema, isOn ? 1 : 0)} color={isOn ? 'primary' : 'default'} variant={isOn ? 'filled' : 'outlined'} />;
    }
    case 'choice': {
      if (value === null || value === undefined || value === '') return '';
      const index = (schema.enum ?? []).indexOf(value);
      return <Chip size="small" label={choiceLabel(schema, value)} color={CHOICE_COLOURS[Math.max(index, 0) % CHOICE_COLOURS.length]} />;
    }
    case 'reference':
      return value === null || value === undefined || value === '' ? '' : <ReferenceName descriptor={descriptor} field={field} record={record} />;
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDate(value, 'YYYY-MM-DD HH:mm');
    case 'link':
      return <SafeLink href={value} />;
    case 'image':
      return isFileUrl(value) ? <Avatar variant="rounded" src={value} alt={fieldTitle(descriptor, field)} /> : null;
    case 'video':
      return isFileUrl(value) ? <FileLink url={value} name={fieldTitle(descriptor, field)} /> : null;
    case 'richText':
      return <RichTextPreview descriptor={descriptor} field={field} record={record} />;
    case 'fileList':
      return (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.25 }}>
          {parseFileList(value).map((file, index) => (
            <FileLink key={`${file.url}-${index}`} url={file.url} name={file.name} />
          ))}
        </Box>
      );
    default:
      return textOf(value);
  }
}

/** The filter control of a declared filter field, as its kind calls for; every one shows 全部 first. */
function filterInput(descriptor: ResourceDescriptor, field: string): ReactElement {
  const schema = fieldSchema(descriptor, field);
  const label = schema.title ?? field;
  const common = { source: field, label, alwaysOn: true, key: field, helperText: false } as const;
  switch (fieldKind(descriptor, field)) {
    case 'flag':
    case 'choice':
      return <SelectInput {...common} choices={choicesOf(schema)} emptyText="全部" emptyValue="" />;
    case 'reference': {
      const target = referenceTarget(referenceOf(descriptor, field)!);
      return (
        <ReferenceInput {...common} reference={target.resource} filter={{ All: 1 }} queryOptions={{ meta: { idField: target.idField } }}>
          <SelectInput label={label} optionText={target.nameField} emptyText="全部" emptyValue="" helperText={false} />
        </ReferenceInput>
      );
    }
    default:
      return <TextInput {...common} />;
  }
}

/** The search of the declared `searchFields`: 搜索 with the text, 重置; an empty text says 请输入搜索内容. */
function ListSearch({ descriptor }: { descriptor: ResourceDescriptor }) {
  const { filterValues, setFilters } = useListContext();
  const choices = useMemo(() => descriptor.searchFields.map((field) => ({ field, label: fieldTitle(descriptor, field) })), [descriptor]);
  const applied = descriptor.searchFields.find((field) => typeof filterValues[field] === 'string' && filterValues[field] !== '');
  const initial: AppliedSearch | undefined = applied ? { field: applied, value: String(filterValues[applied]) } : undefined;
  const without = (values: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(values).filter(([key]) => !descriptor.searchFields.includes(key)));
  return (
    <SearchBar
      choices={choices}
      initial={initial}
      onSearch={({ field, value }) => setFilters({ ...without(filterValues), [field]: value }, {}, false)}
      onReset={() => setFilters(without(filterValues), {}, false)}
    />
  );
}

export interface SchemaListProps {
  descriptor: ResourceDescriptor;
  /** Permanent list filters (parent code, page type…). */
  filter?: Record<string, unknown>;
  /** Columns; default the schema's (descriptor.ts listFields). */
  columns?: readonly ListColumn[];
  /** Buttons shown before the add button in the top bar. */
  actions?: ReactNode;
  /** Label of the add button. */
  addLabel?: string;
  /** Row actions between 编辑 and 删除 (e.g. 查看下一级). */
  rowActions?: (record: Row) => ReactNode;
  /** false: every row at once (All=1) without a pager, as the websites list of 常用网站管理. */
  paged?: boolean;
  /** Dialog settings shared by add and edit (inputs, fields the screen fixes, defaults of new records, transform, rules). */
  form?: Pick<DialogFormProps, 'inputs' | 'fixed' | 'createDefaults' | 'transform' | 'validate'>;
  /**
   * The page, filters and search in the address (a reload or 返回 comes back to them): the
   * generated screens. Special screens whose routes carry their own query keep them in memory.
   */
  syncWithLocation?: boolean;
}

/**
 * The columns of a generated table, the same elements while their inputs stay: react-admin's table
 * body and rows are memoized on them, so a click on 下一页 does not draw the rows shown once more
 * before the next page's arrive. `actions` fills an 操作 column; `sortable`: the columns the
 * descriptor lets sort can be sorted.
 */
export function useTableColumns(
  descriptor: ResourceDescriptor,
  columns: readonly ListColumn[],
  actions: ((record: Row) => ReactNode) | undefined,
  sortable: boolean,
): ReactElement[] {
  return useMemo(
    () => [
      ...columns.map((column) => (
        <DataTable.Col
          key={column.field}
          source={column.field}
          label={fieldTitle(descriptor, column.field)}
          disableSort={!sortable || !descriptor.sortable?.includes(column.field)}
          render={(record: Row) => renderCell(descriptor, column, record)}
        />
      )),
      ...(actions
        ? [<DataTable.Col key="操作" label="操作" render={(record: Row) => <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>{actions(record)}</Box>} />]
        : []),
    ],
    [descriptor, columns, actions, sortable],
  );
}

function Table({ descriptor, columns, rowActions, onEdit }: {
  descriptor: ResourceDescriptor;
  columns: readonly ListColumn[];
  rowActions?: (record: Row) => ReactNode;
  onEdit: (record: Row) => void;
}) {
  const { isPending } = useListContext();
  const can = useAccess(descriptor.resource);
  const bulkDelete = useBulkDelete(descriptor);
  // A member who may neither edit nor delete (nor anything else) gets no empty 操作 column.
  const hasActions = !!rowActions || can('edit') || can('delete');
  const actions = useCallback(
    (record: Row) => (
      <>
        {can('edit', record) && <RowButton label="编辑" icon={<EditIcon />} onClick={() => onEdit(record)} />}
        {rowActions?.(record)}
        {can('delete', record) && <DeleteWithConfirm resource={descriptor.resource} record={record} />}
      </>
    ),
    [can, onEdit, rowActions, descriptor],
  );
  const cols = useTableColumns(descriptor, columns, hasActions ? actions : undefined, true);
  if (isPending) return <ListLoading />;
  return (
    <RowCheckboxLabels>
      <DataTable {...bulkDelete} rowClick={false} empty={<ListEmpty />}>
        {cols}
      </DataTable>
    </RowCheckboxLabels>
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
  columns = listFields(descriptor).map((field) => ({ field })),
  actions,
  addLabel = '新增',
  rowActions,
  form,
  paged = true,
  syncWithLocation = false,
}: SchemaListProps) {
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const can = useAccess(descriptor.resource);
  usePreloadWhenIdle(DialogForm);

  // The same element while its inputs stay: react-admin renders the list again as the session
  // settles, and the toolbar need not follow.
  const canCreate = can('create');
  const hasSearch = descriptor.searchFields.length > 0;
  const toolbar = useMemo(
    () => (
      <TopToolbar sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        {hasSearch && <ListSearch descriptor={descriptor} />}
        <ListExportButton descriptor={descriptor} />
        {actions}
        {canCreate && (
          <Button label={addLabel} variant="contained" onClick={() => setEditing('new')}>
            <AddIcon />
          </Button>
        )}
      </TopToolbar>
    ),
    [actions, canCreate, addLabel, hasSearch, descriptor],
  );
  // Filters the screen does not fix itself (a tab's category), each a control.
  const filters = useMemo(
    () => descriptor.filters.filter((field) => !(filter && field in filter) && field in descriptor.schema.properties).map((field) => filterInput(descriptor, field)),
    [descriptor, filter],
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
        {...(filters.length > 0 ? { filters } : {})}
        disableSyncWithLocation={!syncWithLocation}
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
