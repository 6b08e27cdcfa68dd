import {
  Checkbox,
  FormHelperText,
  FormLabel,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { PERMISSION_CODES, type ModuleKey, type PermissionCode } from '../../../schemas/descriptor';
import { MODULE_LABELS, MODULES } from '../../../schemas/index';

export const CODE_LABELS: Record<PermissionCode, string> = {
  '1': '新增',
  '2': '查看',
  '3': '修改',
  '4': '删除',
  a: '排序/下级',
};

type Modules = Partial<Record<ModuleKey, string>>;

/** The comma string with `code` switched on or off, in the canonical order 1,2,3,4,a. */
export function toggleCode(text: string | undefined, code: PermissionCode, on: boolean): string {
  const codes = new Set((text ?? '').split(',').map((c) => c.trim()).filter(Boolean));
  if (on) codes.add(code);
  else codes.delete(code);
  return PERMISSION_CODES.filter((c) => codes.has(c)).join(',');
}

/** One row of checkboxes per module; each module's codes stored as the comma string of docs/api.md. */
export function ModulePermissionsInput({ source = 'Modules' }: { source?: string }) {
  const { field } = useInput({ source, defaultValue: {} });
  const isAdmin = useWatch({ name: 'IsAdmin' }) === 1;
  const modules: Modules = typeof field.value === 'object' && field.value !== null ? (field.value as Modules) : {};

  const set = (module: ModuleKey, code: PermissionCode, on: boolean) => {
    const next: Modules = { ...modules, [module]: toggleCode(modules[module], code, on) };
    field.onChange(next);
  };

  return (
    <fieldset style={{ border: 0, padding: 0, margin: '8px 0 0' }}>
      <FormLabel component="legend">模块权限</FormLabel>
      {isAdmin && <FormHelperText>管理员拥有全部模块的全部权限</FormHelperText>}
      <Table size="small" aria-label="模块权限">
        <TableHead>
          <TableRow>
            <TableCell>模块</TableCell>
            {PERMISSION_CODES.map((code) => (
              <TableCell key={code} align="center" sx={{ whiteSpace: 'nowrap', px: 1 }}>
                {CODE_LABELS[code]}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {MODULES.map((module) => {
            const codes = new Set((modules[module] ?? '').split(','));
            return (
              <TableRow key={module}>
                <TableCell component="th" scope="row">
                  {MODULE_LABELS[module]}
                </TableCell>
                {PERMISSION_CODES.map((code) => (
                  <TableCell key={code} align="center" padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={isAdmin || codes.has(code)}
                      disabled={isAdmin}
                      onChange={(event) => set(module, code, event.target.checked)}
                      slotProps={{ input: { 'aria-label': `${MODULE_LABELS[module]} ${CODE_LABELS[code]}` } }}
                    />
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </fieldset>
  );
}
