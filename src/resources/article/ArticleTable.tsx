import type { ReactNode } from 'react';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { DataTable, useListContext, type RaRecord } from 'react-admin';
import { RowCheckboxLabels, useBulkDelete } from '../../components/BulkDelete';
import { RowButton } from '../../components/RowButton';
import type { ListColumn, ResourceDescriptor } from '../../../schemas/descriptor';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { useTableColumns } from '../../components/SchemaList';

type Row = RaRecord & Record<string, unknown>;

/** The articles of the list context, with the given columns and an 操作 column. */
export function ArticleTable({
  descriptor,
  columns,
  actions,
  bulkDelete = false,
}: {
  descriptor: ResourceDescriptor;
  columns: readonly ListColumn[];
  actions: (record: Row) => ReactNode;
  /** 批量删除 (the management screens), for members with the delete code. */
  bulkDelete?: boolean;
}) {
  const { isPending } = useListContext();
  const bulk = useBulkDelete(descriptor, { inline: true });
  const cols = useTableColumns(descriptor, columns, actions, false);
  if (isPending) return <ListLoading />;
  return (
    <RowCheckboxLabels>
      <DataTable {...(bulkDelete ? bulk : { bulkActionButtons: false })} rowClick={false} empty={<ListEmpty />}>
        {cols}
      </DataTable>
    </RowCheckboxLabels>
  );
}

export function ViewButton({ onClick }: { onClick: () => void }) {
  return (
    <RowButton label="查看" icon={<VisibilityIcon />} onClick={onClick} />
  );
}
