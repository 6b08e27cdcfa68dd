import { useMemo, useState, type ReactNode } from 'react';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Alert, Chip } from '@mui/material';
import {
  Button,
  DataTable,
  List,
  SelectInput,
  TextInput,
  TopToolbar,
  useGetList,
  useListContext,
  type RaRecord,
} from 'react-admin';
import { auditLogResource } from '../../../schemas/auditLog';
import { ListExportButton } from '../../components/ExportButton';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { ZhDateInput } from '../../components/ZhDateInput';
import { fieldTitle } from '../../components/schemaFields';
import { ZhPagination } from '../../components/ZhPagination';
import { BARE_DAY } from '../../../schemas/businessTime';
import { formatDate } from '../../i18n/dayjs';
import { AuditDetails, TIME_FORMAT, type AuditEntryRecord } from './AuditDetails';
import { ACTION_CHOICES, actionLabel, RESOURCE_CHOICES, resourceLabel } from './auditFormat';

type Entry = RaRecord & AuditEntryRecord;

const title = (field: string) => fieldTitle(auditLogResource, field);

const ACTION_COLORS: Record<string, 'success' | 'primary' | 'error' | 'default'> = {
  create: 'success',
  update: 'primary',
  delete: 'error',
  sort: 'default',
};

// The date inputs send a whole day ('YYYY-MM-DD'): the server takes it as that day in the business
// time zone (TIME_ZONE), which is also the zone every time of the list shows in. A day still being
// typed filters nothing.
const wholeDay = (value: string) => (BARE_DAY.test(value) ? value : '');

/**
 * 操作人: the members as choices (administrators may list them); entries keep the name anyway.
 * The select shows at once, with 全部 only until the members arrive: its loading placeholder is
 * shorter, and the list below moved down when it was replaced.
 */
function MemberFilter({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  const { data = [] } = useGetList('member', {
    pagination: { page: 1, perPage: 1000 },
    filter: { All: 1 },
  });
  const choices = data.map((m) => ({ id: String(m.AuCode), name: `${String(m.AuName)} (${String(m.UserName)})` }));
  return <SelectInput source={source} label={label} choices={choices} emptyText="全部" sx={{ minWidth: 180 }} />;
}

const filters = [
  <SelectInput key="Resource" source="Resource" label={title('Resource')} choices={RESOURCE_CHOICES} emptyText="全部" alwaysOn sx={{ minWidth: 150 }} />,
  <SelectInput key="Action" source="Action" label={title('Action')} choices={ACTION_CHOICES} emptyText="全部" alwaysOn sx={{ minWidth: 120 }} />,
  <MemberFilter key="AuCode" source="AuCode" label={title('AuName')} alwaysOn />,
  <ZhDateInput key="AtFrom" source="AtFrom" label="开始日期" parse={wholeDay} alwaysOn sx={{ width: 170 }} />,
  <ZhDateInput key="AtTo" source="AtTo" label="结束日期" parse={wholeDay} alwaysOn sx={{ width: 170 }} />,
  <TextInput key="RecordName" source="RecordName" label={title('RecordName')} alwaysOn />,
];

/** A column of an entry's field, titled as the schema titles it, unsorted (the log is newest first). */
const column = (source: keyof Entry & string, render?: (entry: Entry) => ReactNode) => (
  <DataTable.Col key={source} source={source} label={title(source)} disableSort {...(render ? { render } : {})} />
);

function Table({ onShow }: { onShow: (entry: Entry) => void }) {
  const { isPending } = useListContext();
  // The same columns while onShow stays: the table's rows are then not drawn again on 下一页
  // before the next page's arrive (see useTableColumns).
  const columns = useMemo(
    () => [
      column('At', (r) => formatDate(r.At, TIME_FORMAT)),
      column('AuName'),
      column('Action', (r) => <Chip size="small" variant="outlined" label={actionLabel(r.Action)} color={ACTION_COLORS[String(r.Action)] ?? 'default'} />),
      column('Resource', (r) => resourceLabel(r.Resource)),
      column('RecordName'),
      <DataTable.Col
        key="详情"
        label="详情"
        render={(r: Entry) => (
          <Button label="查看" onClick={() => onShow(r)}>
            <VisibilityIcon />
          </Button>
        )}
      />,
    ],
    [onShow],
  );
  if (isPending) return <ListLoading />;
  return (
    <DataTable bulkActionButtons={false} rowClick={false} empty={<ListEmpty />}>
      {columns}
    </DataTable>
  );
}

function LoadError() {
  const { error } = useListContext();
  return <Alert severity="error">操作日志加载失败：{error instanceof Error ? error.message : '请稍后重试'}</Alert>;
}

/**
 * 操作日志 (administrators only): who added, changed, deleted or re-sorted which record, and when,
 * newest first, 15 a page; filters by 对象, 操作, 操作人, days and name; 查看 shows each changed
 * field before → after. Read only: the log has no add, edit or delete.
 */
export default function AuditLogList() {
  const [shown, setShown] = useState<Entry | null>(null);
  return (
    <>
      <List
        resource={auditLogResource.resource}
        // The page's title is the app bar's (ScreenTitle), from the screen's declaration.
        title={false}
        perPage={auditLogResource.pageSize}
        filters={filters}
        actions={
          <TopToolbar>
            <ListExportButton descriptor={auditLogResource} />
          </TopToolbar>
        }
        pagination={<ZhPagination />}
        empty={false}
        error={<LoadError />}
        exporter={false}
        disableSyncWithLocation
        storeKey={false}
        disableAuthentication // the member is checked once, by the screen's guard (see SchemaList)
      >
        <Table onShow={setShown} />
      </List>
      {shown && <AuditDetails entry={shown} onClose={() => setShown(null)} />}
    </>
  );
}
