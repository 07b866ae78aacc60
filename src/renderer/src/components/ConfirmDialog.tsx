import { useId, type ReactNode } from 'react';
import type { ShownError } from '../lib/errors';
import { Dialog } from './Dialog';
import { ErrorMessage } from './ErrorMessage';

interface ConfirmDialogProps {
  /** The question, naming what it acts on: `Delete “Lectures”?`. */
  question: string;
  /** The whole name, shown on hover when the question is clamped to two lines. */
  fullName: string;
  /** What happens, and what stays. */
  children: ReactNode;
  /** The safe answer, which has the focus. */
  keepLabel: string;
  /** The answer that acts, drawn as a danger. */
  confirmLabel: string;
  /** The action is under way: the confirm button says so and takes no second press. */
  busy: boolean;
  problem: ShownError | null;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before an action that cannot be taken back; the safe answer has the focus. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={props.onClose}>
      <h2 id={titleId} className="clamp-2" title={props.fullName}>
        {props.question}
      </h2>
      <p>{props.children}</p>
      <ErrorMessage error={props.problem} />
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={props.onClose}>
          {props.keepLabel}
        </button>
        <button
          type="button"
          className="button-danger"
          onClick={props.onConfirm}
          aria-disabled={props.busy || undefined}
        >
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
