import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/contract';
import { checkServiceAddress } from '../../../../shared/service-access';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../lib/errors';
import { safeHttpsUrl } from '../../lib/links';
import { settingsStore, useSettings } from '../../stores';

/** Where the service is (with a test that costs nothing) and where its billing page is. */
export function ServiceSection({ settings }: { settings: Settings }) {
  return (
    <section className="card" aria-labelledby="service-heading">
      <h2 id="service-heading">Service</h2>
      <ServiceAddress saved={settings.serviceUrl} />
      <BillingAddress saved={settings.billingUrl} />
    </section>
  );
}

function ServiceAddress({ saved }: { saved: string | null }) {
  const [address, setAddress] = useState(saved ?? '');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  const test = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = address.trim();
    const problem = trimmed === '' ? null : checkServiceAddress(trimmed);
    if (problem !== null) {
      setResult({ ok: false, message: problem });
      return;
    }
    setTesting(true);
    setResult(null);
    try {
      setResult(await settingsStore.getState().testConnection(trimmed));
    } catch (error) {
      setResult({ ok: false, message: describeError(error).message });
    } finally {
      setTesting(false);
    }
  };

  return (
    <form className="inline-form" onSubmit={test}>
      <div className="field">
        <label htmlFor="service-url">Service address</label>
        <input
          id="service-url"
          type="url"
          value={address}
          spellCheck={false}
          autoComplete="off"
          aria-describedby="service-url-help"
          onChange={(event) => setAddress(event.target.value)}
        />
        <p id="service-url-help" className="help">
          The Transcript Service’s address, such as https://api.example.com. Test connection saves it, and
          from then on it is the one in use; then it asks that address a question that costs nothing. Left
          empty, the address Scriptorium was started with (if any) is used. A new address asks for the key
          again.
        </p>
        <AddressInUseLine />
      </div>
      <div className="form-actions">
        <button type="submit" aria-disabled={testing || undefined}>
          Test connection
        </button>
      </div>
      <p
        role="status"
        className={
          result === null
            ? 'visually-hidden'
            : result.ok
              ? 'message message-success'
              : 'message message-error'
        }
      >
        {testing ? 'Testing…' : result?.message}
      </p>
    </form>
  );
}

/** Which address requests go to now, and where it comes from: one rule, said on screen. */
function AddressInUseLine() {
  const inUse = useSettings((state) => state.addressInUse);
  if (inUse === null) return null;
  return (
    <p className="address-in-use" role="status">
      {inUse.url === null ? (
        'No address is in use yet: nothing can be sent until one is saved.'
      ) : (
        <>
          In use: <strong>{inUse.url}</strong>
          {inUse.from === 'settings'
            ? ', saved here.'
            : ', given when Scriptorium started (--base-url or TRANSCRIPT_API_BASE_URL).'}
        </>
      )}
    </p>
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
