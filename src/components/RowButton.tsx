import type { ReactElement } from 'react';
import { Button, type ButtonProps } from '@mui/material';

/**
 * A small text button with its icon, for the actions of a table row (编辑, 删除, 查看…). MUI's
 * Button rather than react-admin's: that one follows a media query and translates its label in
 * every instance, which over 15 rows of two or three actions is a visible part of a page change.
 */
export function RowButton({ label, icon, ...props }: { label: string; icon: ReactElement } & Omit<ButtonProps, 'children' | 'startIcon'>) {
  return (
    <Button size="small" startIcon={icon} {...props}>
      {label}
    </Button>
  );
}
