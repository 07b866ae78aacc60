import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { CreditView, JobView } from '../../../shared/contract';
import { Dialog } from '../components/Dialog';
import { describeError } from '../lib/errors';
import { formatCount } from '../lib/format';
import { creditsStore, useCredits, useJobs } from '../stores';
import { focusedJobId } from '../stores/jobs';

/** Always on screen: what was spent, what the job in view may still spend, and the balance left. */
export function CreditsBar() {
  const view = useCredits((state) => state.view);
  const loadError = useCredits((state) => state.loadError);
  const jobId = useJobs(focusedJobId);
  const job = useJobs((state) => (jobId === null ? undefined : state.byId[jobId]));

  return (
    <section className="credits-bar" aria-label="Credits">
      {view === null ? (
        <p className="credits-loading">{loadError ?? 'Reading the credits…'}</p>
      ) : (
        <dl className="credit-facts">
          <Fact term="Spent today">{credits(view.today)}</Fact>
          <Fact term="In total">
            {credits(view.total)}
            {view.possible > 0 && <span className="muted"> ({formatCount(view.possible)} maybe)</span>}
          </Fact>
          {job !== undefined && <JobCredits job={job} />}
          <Fact term="Balance" width="balance">
            <Balance view={view} />
          </Fact>
        </dl>
      )}
    </section>
  );
}

function credits(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'credit' : 'credits'}`;
}

/**
 * One fact of the bar. A `width` fact takes the same room whatever it says (its words cut short,
 * whole in a tooltip), so that choosing another job, or entering the balance, never moves the bar's
 * line breaks, nor the page below it.
 */
function Fact({
  term,
  children,
  width,
}: {
  term: string;
  children: ReactNode;
  width?: 'job' | 'budget' | 'balance';
}) {
  return (
    <div className={width === undefined ? 'credit-fact' : `credit-fact credit-fact-${width}`}>
      <dt title={width === 'job' ? term : undefined}>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function JobCredits({ job }: { job: JobView }) {
  return (
    <>
      <Fact term={`Job “${job.title}”`} width="job">
        {credits(job.creditsSpent)}
      </Fact>
      <Fact term="Budget left" width="budget">
        {job.budget === null ? (
          <span className="muted">no budget</span>
        ) : job.budget === 0 ? (
          <span className="muted">none to spend</span>
        ) : (
          `${formatCount(Math.max(0, job.budget - job.creditsSpent))} of ${formatCount(job.budget)}`
        )}
      </Fact>
    </>
  );
}

/** The balance estimate, once the user has typed the balance their account shows. */
function Balance({ view }: { view: CreditView }) {
  const [editing, setEditing] = useState(false);
  return (
    <>
      {view.balance === null || view.estimatedRemaining === null ? (
        <span className="muted">not entered</span>
      ) : (
        <span className="balance-estimate" title={`about ${credits(view.estimatedRemaining)} left`}>
          about {formatCount(view.estimatedRemaining)} left
        </span>
      )}{' '}
      <button type="button" className="link-button" onClick={() => setEditing(true)}>
        {view.balance === null ? 'Enter balance' : 'Change balance'}
      </button>
      {editing && <BalanceDialog current={view.balance} onDone={() => setEditing(false)} />}
    </>
  );
}

/**
 * Asked in a dialog of its own, outside the bar: a form in the bar would make it taller and move the
 * page under it.
 */
function BalanceDialog({ current, onDone }: { current: number | null; onDone: () => void }) {
  const headingId = useId();
  return createPortal(
    <Dialog labelledBy={headingId} onClose={onDone}>
      <h2 id={headingId}>Your balance</h2>
      <BalanceForm current={current} onDone={onDone} />
    </Dialog>,
    document.body,
  );
}

function BalanceForm({ current, onDone }: { current: number | null; onDone: () => void }) {
  const [text, setText] = useState(current === null ? '' : String(current));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const save = async (credits: number | null) => {
    try {
      await creditsStore.getState().setBalance(credits);
      onDone();
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!/^\d+$/.test(value)) {
      setProblem('Enter the whole number of credits your account page shows.');
      return;
    }
    void save(Number(value));
  };

  return (
    <form className="balance-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-balance`}>Credits on your account</label>
        <input
          id={`${id}-balance`}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          value={text}
          autoFocus
          aria-describedby={`${id}-help${problem ? ` ${id}-problem` : ''}`}
          onChange={(event) => setText(event.target.value)}
        />
        <p id={`${id}-help`} className="help">
          As your account page shows it now; Scriptorium subtracts what it spends from then on.
        </p>
        {problem && (
          <p id={`${id}-problem`} className="field-problem" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        {current !== null && (
          <button type="button" onClick={() => void save(null)}>
            Forget balance
          </button>
        )}
        <button type="submit" className="button-primary">
          Save balance
        </button>
      </div>
    </form>
  );
}
