import { useId } from 'react';
import type { JobView } from '../../../../shared/contract';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import type { ShownError } from '../../lib/errors';

interface CancelJobDialogProps {
  job: JobView;
  cancelling: boolean;
  problem: ShownError | null;
  onConfirm(): void;
  onClose(): void;
}

/** Cancelling stops a job for good, unlike Pause, so it is asked first; the safe answer has the focus. */
export function CancelJobDialog({ job, cancelling, problem, onConfirm, onClose }: CancelJobDialogProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId} className="clamp-2" title={job.title}>
        Cancel “{job.title}”?
      </h2>
      <p>
        It stops for good: nothing more is bought, and it cannot be resumed. What it bought stays, and Export
        still writes it. Starting the same sources again later makes a new job, which reuses the transcripts
        this one bought at no cost. To stop it for a while instead, choose Pause.
      </p>
      <ErrorMessage error={problem} />
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={onClose}>
          Keep the job
        </button>
        <button
          type="button"
          className="button-danger"
          onClick={onConfirm}
          aria-disabled={cancelling || undefined}
        >
          Cancel job
        </button>
      </div>
    </Dialog>
  );
}
