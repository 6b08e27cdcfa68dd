import type { ReactNode } from 'react';
import { Confirm } from 'react-admin';

/** react-admin's Confirm draws its cancel button's icon always; an empty one keeps 取消 plain. */
function NoIcon() {
  return null;
}

/**
 * Every question the admin asks before acting: 提示, the question, 确定 / 取消 (react-admin's
 * Confirm). 取消 has no icon, like every other 取消 of the app (Confirm's default is an alert sign).
 */
export function Prompt({
  open,
  question,
  loading,
  onConfirm,
  onClose,
}: {
  open: boolean;
  question: ReactNode;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Confirm
      isOpen={open}
      loading={loading}
      title="提示"
      content={question}
      confirm="确定"
      cancel="取消"
      CancelIcon={NoIcon}
      // The empty icon's box would still push the label aside.
      sx={{ '& .MuiDialogActions-root .MuiButton-startIcon:empty': { display: 'none' } }}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
