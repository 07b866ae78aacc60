import { useId } from 'react';
import type { JobView } from '../../../../shared/contract';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import type { ShownError } from '../../lib/errors';

interface DeleteJobDialogProps {
  job: JobView;
  deleting: boolean;
  problem: ShownError | null;
  onConfirm(): void;
  onClose(): void;
}

/** Deleting cannot be undone, so it is asked first; the safe answer has the focus. */
export function DeleteJobDialog({ job, deleting, problem, onConfirm, onClose }: DeleteJobDialogProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId} className="clamp-2" title={job.title}>
        Delete “{job.title}”?
      </h2>
      <p>
        The job and its list of videos leave this computer. Credits already spent stay spent, and the
        transcripts stay in the cache: running the same sources again does not buy them twice.
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
          aria-disabled={deleting || undefined}
        >
          Delete job
        </button>
      </div>
    </Dialog>
  );
}
