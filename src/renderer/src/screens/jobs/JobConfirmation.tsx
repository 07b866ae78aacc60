import type { JobView } from '../../../../shared/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { ShownError } from '../../lib/errors';

/** The job's actions that cannot be taken back, so are asked first. */
export type ConfirmedAction = 'cancel' | 'delete';

/** What each asks and says. */
const CONFIRMATIONS: Record<ConfirmedAction, { verb: string; confirmLabel: string; says: string }> = {
  // Cancelling stops a job for good, unlike Pause.
  cancel: {
    verb: 'Cancel',
    confirmLabel: 'Cancel job',
    says:
      'It stops for good: nothing more is bought, and it cannot be resumed. What it bought stays, and ' +
      'Export still writes it. Starting the same sources again later makes a new job, which reuses the ' +
      'transcripts this one bought at no cost. To stop it for a while instead, choose Pause.',
  },
  delete: {
    verb: 'Delete',
    confirmLabel: 'Delete job',
    says:
      'The job and its list of videos leave this computer. Credits already spent stay spent, and the ' +
      'transcripts stay in the cache: running the same sources again does not buy them twice.',
  },
};

interface JobConfirmationProps {
  action: ConfirmedAction;
  job: JobView;
  busy: boolean;
  problem: ShownError | null;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before cancelling or deleting a job. */
export function JobConfirmation({ action, job, ...answers }: JobConfirmationProps) {
  const { verb, confirmLabel, says } = CONFIRMATIONS[action];
  return (
    <ConfirmDialog
      question={`${verb} “${job.title}”?`}
      fullName={job.title}
      keepLabel="Keep the job"
      confirmLabel={confirmLabel}
      {...answers}
    >
      {says}
    </ConfirmDialog>
  );
}
