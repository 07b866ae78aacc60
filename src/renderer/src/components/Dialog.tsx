import { useEffect, useRef, type ReactNode } from 'react';

interface DialogProps {
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  /** Asked to close: Escape, or a button of the dialog's own. */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog on the browser's own <dialog>: it traps focus, makes the page behind it inert
 * and closes on Escape. Focus goes back where it was when the dialog closes.
 */
export function Dialog({ labelledBy, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const before = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      dialog.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        // Escape: the parent decides, so that the dialog closes the same way as with its buttons.
        event.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
