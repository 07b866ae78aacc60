import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../lib/errors';
import { safeHttpsUrl } from '../../lib/links';
import { settingsStore } from '../../stores';

/** Where the service's billing page is, for the link shown when it asks for payment. */
export function BillingSection({ settings }: { settings: Settings }) {
  return (
    <section className="card" aria-labelledby="billing-heading">
      <h2 id="billing-heading">Billing</h2>
      <BillingAddress saved={settings.billingUrl} />
    </section>
  );
}

function BillingAddress({ saved }: { saved: string | null }) {
  const [address, setAddress] = useState(saved ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState('');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const trimmed = address.trim();
    if (trimmed !== '' && safeHttpsUrl(trimmed) === null) {
      setProblem('The billing page’s address must start with https://.');
      return;
    }
    setProblem(null);
    try {
      await settingsStore.getState().saveBillingUrl(trimmed);
      setDone(trimmed === '' ? 'Billing page removed.' : 'Billing page saved.');
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <form className="inline-form" onSubmit={(event) => void save(event)}>
      <div className="field">
        <label htmlFor="billing-url">Billing page</label>
        <input
          id="billing-url"
          type="url"
          value={address}
          spellCheck={false}
          autoComplete="off"
          aria-describedby="billing-url-help"
          onChange={(event) => setAddress(event.target.value)}
        />
        <p id="billing-url-help" className="help">
          Where you top up your credits (https only). When the service asks for payment, the alert links to
          it.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit">Save billing page</button>
      </div>
      <p role="status" className={done ? 'message message-success' : 'visually-hidden'}>
        {done}
      </p>
      <ErrorMessage error={problem} />
    </form>
  );
}
