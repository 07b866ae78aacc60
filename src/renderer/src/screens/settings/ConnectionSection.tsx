import { useEffect, useRef, useState, type FormEvent } from 'react';
import { checkApiKey, checkServiceAddress } from '../../../../shared/service-access';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/FormFields';
import { describeError } from '../../lib/errors';
import { settingsStore, useSettings } from '../../stores';
import type { ConnectOutcome } from '../../stores/settings';

/** What is wrong with each field, said under it until that field is changed. */
interface Problems {
  address?: string;
  key?: string;
}

/** What the last action said: a success, or a failure (a refused key, an unreachable service). */
type Said = { ok: boolean; message: string } | null;

/**
 * The service's address and the API key in one form, so that the first run works in any order:
 * Save key saves what is typed in both (the address first, since a key is kept for one address)
 * and tests them; Test connection does the same with whatever key is set. The key can be saved,
 * replaced or removed, never read back, and its field is emptied once it is saved.
 */
export function ConnectionSection({ saved }: { saved: string | null }) {
  const keyStatus = useSettings((state) => state.keyStatus);
  const [address, setAddress] = useState(saved ?? '');
  const [key, setKey] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [said, setSaid] = useState<Said>(null);
  const [busy, setBusy] = useState(false);
  // What an action said comes into view: at 800×600 the buttons sit at the foot of the window.
  const saidRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (said !== null) saidRef.current?.scrollIntoView({ block: 'nearest' });
  }, [said]);

  const act = async (work: () => Promise<Said>) => {
    setBusy(true);
    setSaid(null);
    try {
      setSaid(await work());
    } catch (error) {
      setSaid({ ok: false, message: describeError(error).message });
    } finally {
      setBusy(false);
    }
  };

  /** Saves what is typed and tests it; `needsKey` when the action is Save key. */
  const connect = (needsKey: boolean) => {
    if (busy) return;
    const typedAddress = address.trim();
    const typedKey = key.trim();
    const found = fieldProblems(typedAddress, typedKey, {
      // An empty field falls back on an address in use (the one Scriptorium started with).
      addressInUse: settingsStore.getState().addressInUse?.url != null,
      needsKey: needsKey && keyStatus?.set !== true,
    });
    setProblems(found);
    if (found.address !== undefined || found.key !== undefined) {
      setSaid(null);
      return;
    }
    void act(async () => {
      const outcome = await settingsStore.getState().connect({
        ...(typedAddress !== (saved ?? '') && { serviceUrl: typedAddress }),
        ...(typedKey !== '' && { key: typedKey }),
      });
      if (outcome.savedKey) setKey('');
      return sayOutcome(outcome);
    });
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    connect(true);
  };

  const remove = () => {
    if (busy || keyStatus?.set !== true) return;
    void act(async () => {
      await settingsStore.getState().removeKey();
      return { ok: true, message: 'Key removed.' };
    });
  };

  return (
    <section className="card" aria-labelledby="connection-heading">
      <h2 id="connection-heading">Service and key</h2>
      <form className="connection-form" onSubmit={save} noValidate>
        <TextField
          id="service-url"
          type="url"
          label="Service address"
          help="The Transcript Service’s address, such as https://api.example.com. Left empty, the address Scriptorium was started with (if any) is used. A key is kept for one address: a new address asks for the key again."
          value={address}
          problem={problems.address}
          onChange={(value) => {
            setAddress(value);
            setProblems(({ address: _fixed, ...rest }) => rest);
          }}
        />
        <AddressInUseLine />
        <KeyStatusLine />
        <TextField
          id="api-key"
          type="password"
          label="API key"
          help="Sent only to the service address above, the one it is saved with, and never shown again once saved."
          value={key}
          problem={problems.key}
          onChange={(value) => {
            setKey(value);
            setProblems(({ key: _fixed, ...rest }) => rest);
          }}
        />
        <div className="form-actions">
          <button type="submit" className="button-primary" aria-disabled={busy || undefined}>
            Save key
          </button>
          <button type="button" aria-disabled={busy || undefined} onClick={() => connect(false)}>
            Test connection
          </button>
          <button type="button" aria-disabled={busy || keyStatus?.set !== true || undefined} onClick={remove}>
            Remove key
          </button>
          <p className="help">Save key saves the address and the key you typed, then tests them.</p>
        </div>
        <div ref={saidRef}>
          <p role="status" className={said?.ok === true ? 'message message-success' : 'visually-hidden'}>
            {busy ? 'Testing…' : said?.ok === true ? said.message : ''}
          </p>
          <ErrorMessage error={said?.ok === false ? said.message : null} />
        </div>
      </form>
    </section>
  );
}

/** What keeps the form from being sent, field by field, before anything is saved or sent. */
function fieldProblems(
  typedAddress: string,
  typedKey: string,
  { addressInUse, needsKey }: { addressInUse: boolean; needsKey: boolean },
): Problems {
  const found: Problems = {};
  if (typedAddress !== '') {
    const problem = checkServiceAddress(typedAddress);
    if (problem !== null) found.address = problem;
  } else if (!addressInUse) {
    found.address = 'Type the service’s address first, such as https://api.example.com.';
  }
  if (typedKey !== '') {
    const problem = checkApiKey(typedKey);
    if (problem !== null) found.key = problem;
  } else if (needsKey) {
    found.key = 'Paste your API key first.';
  }
  return found;
}

/** "Address and key saved. Connected to …", or what went wrong after what was saved. */
function sayOutcome({ savedAddress, savedKey, test }: ConnectOutcome): Said {
  const saved =
    savedAddress && savedKey
      ? 'Address and key saved. '
      : savedAddress
        ? 'Address saved. '
        : savedKey
          ? 'Key saved. '
          : '';
  return { ok: test.ok, message: `${saved}${test.message}` };
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

/** Whether a key is set for the address in use and where it is kept, in Settings' own words. */
function KeyStatusLine() {
  const status = useSettings((state) => state.keyStatus);
  if (status === null) return null;
  return (
    <p className={status.set ? 'key-status key-set' : 'key-status'}>
      {status.set && <strong>A key is set. </strong>}
      {status.message}
    </p>
  );
}
