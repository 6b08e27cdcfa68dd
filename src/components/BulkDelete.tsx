import { useCallback, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, ThemeProvider, type Theme, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem, ListItemText, Button as MuiButton } from '@mui/material';
import { BulkActionsToolbar, Button, useCanAccess, useDataProvider, useListContext, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { bulkDeleteCall, type BulkDeleteFailure, type BulkDeleteResult } from '../../schemas/bulkDelete';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { useAccess } from '../access/useMember';
import { messageOf } from './DeleteWithConfirm';
import { Prompt } from './Prompt';

/** Failures listed in the result at most; the rest are counted. */
const LISTED_FAILURES = 100;

/** The selection of a list: the rows ticked, or every row matching the list's filters. */
interface Selection {
  allMatching: boolean;
  setAllMatching: (all: boolean) => void;
}

/**
 * 批量删除 for a react-admin DataTable (its `bulkActionButtons` and `bulkActionsToolbar`): the
 * checkboxes, 选择全部符合条件的 N 条 once a whole page is ticked, one 提示 naming how many, then
 * 已删除 N 条 and the rows kept with why. Nothing (no checkboxes) for a member without the delete
 * code, or for a resource whose delete has no bulk form (schemas/bulkDelete.ts).
 * `inline`: the toolbar sits above the table instead of over the list's top bar (a table in a
 * scrolling pane of its own).
 */
export function useBulkDelete(descriptor: ResourceDescriptor, { inline = false }: { inline?: boolean } = {}): {
  bulkActionButtons: boolean;
  bulkActionsToolbar?: ReactElement;
} {
  const can = useAccess(descriptor.resource);
  const enabled = !!bulkDeleteCall(descriptor) && can('delete');
  // react-admin's DataTable asks the auth provider whether the member may delete (canAccess) when
  // it is given bulk actions, once it has rows. Asked already with the list (with the table's own
  // parameters: the same question), the server's render of the page has the answer with the rows,
  // not after one more pass over the whole page.
  useCanAccess({ resource: descriptor.resource, action: 'delete', ...(enabled ? {} : { enabled: false }) });
  // With a toolbar of its own, the DataTable's `bulkActionButtons` only turns the checkboxes on.
  return useMemo(
    () => (enabled ? { bulkActionButtons: true, bulkActionsToolbar: <BulkDeleteToolbar descriptor={descriptor} inline={inline} /> } : { bulkActionButtons: false }),
    [enabled, descriptor, inline],
  );
}

/**
 * Names each row's checkbox of the tables inside (react-admin's 选择此行): its row checkbox puts the
 * name on the MUI Checkbox's root, which gives it to the box around the input, not to the input. A
 * nested theme (MUI's documented way of changing defaults for a part of the page) moves it.
 */
export function RowCheckboxLabels({ children }: { children: ReactNode }) {
  const label = useTranslate()('ra.action.select_row');
  const theme = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCheckbox: {
          ...outer.components?.MuiCheckbox,
          defaultProps: {
            ...outer.components?.MuiCheckbox?.defaultProps,
            // A header's checkbox names its input itself (全选), which wins over these defaults.
            slotProps: { root: { 'aria-label': undefined }, input: { 'aria-label': label } },
          },
        },
      },
    }),
    [label],
  );
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

function BulkDeleteToolbar({ descriptor, inline }: { descriptor: ResourceDescriptor; inline: boolean }) {
  const { selectedIds, total, filterValues } = useListContext();
  // "Every matching row" holds for the selection and filters it was chosen with, no other.
  const selectionKey = `${selectedIds.join(',')}|${JSON.stringify(filterValues)}`;
  const [chosenFor, setChosenFor] = useState<string | null>(null);
  const allMatching = chosenFor === selectionKey;
  const selection: Selection = { allMatching, setAllMatching: (all) => setChosenFor(all ? selectionKey : null) };
  const toolbar = (
    <BulkActionsToolbar
      label={allMatching ? `已选择全部符合条件的 ${total ?? 0} 项` : 'ra.action.bulk_actions'}
      selectAllButton={<SelectAllMatching selection={selection} />}
    >
      <BulkDeleteButton descriptor={descriptor} allMatching={allMatching} />
    </BulkActionsToolbar>
  );
  // `&&`: over the toolbar's own rule, of the same weight.
  return inline ? <Box sx={{ '&& .RaBulkActionsToolbar-toolbar': { position: 'static', transform: 'none' } }}>{toolbar}</Box> : toolbar;
}

/** Shown once the whole page is ticked and more rows match: the filter then goes to the server, not their ids. */
function SelectAllMatching({ selection }: { selection: Selection }) {
  const { selectedIds, total, data } = useListContext();
  const pageTicked = !!data && data.length > 0 && data.every((record: RaRecord) => selectedIds.includes(record.id));
  if (selection.allMatching || !pageTicked || total === undefined || total <= selectedIds.length) return null;
  return <Button label={`选择全部符合条件的 ${total} 项`} onClick={() => selection.setAllMatching(true)} />;
}

function BulkDeleteButton({ descriptor, allMatching }: { descriptor: ResourceDescriptor; allMatching: boolean }) {
  const { selectedIds, total, filter, filterValues, data, onUnselectItems } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<{ result: BulkDeleteResult; names: Map<string, string> } | null>(null);
  const count = allMatching ? (total ?? 0) : selectedIds.length;

  const confirm = async () => {
    setPending(true);
    // Names of the rows on the page, for rows the server no longer knows.
    const nameField = descriptor.nameField;
    const names = new Map((data ?? []).map((record: RaRecord) => [String(record.id), nameField ? String(record[nameField] ?? '') : '']));
    try {
      const answer = await dataProvider.deleteMany(descriptor.resource, {
        ids: allMatching ? [] : selectedIds,
        ...(allMatching ? { meta: { filter: { ...filterValues, ...filter } } } : {}),
      });
      const result = (answer.meta as { result?: BulkDeleteResult } | undefined)?.result ?? { Deleted: selectedIds.length, Failed: [] };
      onUnselectItems();
      if (result.Failed.length === 0) notify(`已删除 ${result.Deleted} 条`, { type: 'success' });
      else {
        // Said twice: the list of rows kept goes with the table should none of them be left to show.
        notify(`已删除 ${result.Deleted} 条，${result.Failed.length} 条未删除`, { type: 'warning' });
        setOutcome({ result, names });
      }
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setPending(false);
      setAsking(false);
    }
  };

  return (
    <>
      <Button label="批量删除" color="error" onClick={() => setAsking(true)}>
        <DeleteIcon />
      </Button>
      <Prompt
        open={asking}
        loading={pending}
        question={allMatching ? `此操作将永久删除符合条件的全部 ${count} 条记录, 是否继续?` : `此操作将永久删除选中的 ${count} 条记录, 是否继续?`}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(false)}
      />
      {outcome && <BulkDeleteOutcome {...outcome} onClose={() => setOutcome(null)} />}
    </>
  );
}

/** The result of a bulk delete that kept rows: how many went, and each row kept with why. */
function BulkDeleteOutcome({ result, names, onClose }: { result: BulkDeleteResult; names: Map<string, string>; onClose: () => void }) {
  const listed = result.Failed.slice(0, LISTED_FAILURES);
  const nameOf = (failure: BulkDeleteFailure) => failure.Name ?? (names.get(String(failure.Id)) || `编号 ${failure.Id}`);
  return (
    <Dialog open onClose={onClose} aria-labelledby="bulk-delete-outcome" maxWidth="sm" fullWidth>
      <DialogTitle id="bulk-delete-outcome">删除结果</DialogTitle>
      <DialogContent>
        <DialogContentText>
          已删除 {result.Deleted} 条，{result.Failed.length} 条未删除：
        </DialogContentText>
        <List dense aria-label="未删除的记录">
          {listed.map((failure) => (
            <ListItem key={failure.Id} disableGutters>
              <ListItemText primary={nameOf(failure)} secondary={failure.Reason} />
            </ListItem>
          ))}
        </List>
        {result.Failed.length > listed.length && <DialogContentText>另有 {result.Failed.length - listed.length} 条未列出</DialogContentText>}
      </DialogContent>
      <DialogActions>
        <MuiButton variant="contained" onClick={onClose}>
          确定
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
