import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError, type ShownError } from '../../lib/errors';
import { settingsStore, useSettings } from '../../stores';

/**
 * The API key: it can be saved, replaced or removed, never read back. The field is emptied once
 * the key is saved, so the page holds it no longer than needed.
 */
export function KeySection() {
  const status = useSettings((state) => state.keyStatus);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ShownError | null>(null);
  // What the last action did, shown only while the key's status still agrees with it: a key saved
  // for an address since changed is not a saved key any more.
  const [done, setDone] = useState<{ message: string; set: boolean } | null>(null);
  const shownDone = done !== null && status?.set === done.set ? done.message : '';

  const act = async (action: () => Promise<unknown>, outcome: { message: string; set: boolean }) => {
    setBusy(true);
    setProblem(null);
    setDone(null);
    try {
      await action();
      setDone(outcome);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === '') {
      setDone(null);
      setProblem({ message: 'Paste your API key first.', fixInSettings: false });
      return;
    }
    void act(
      async () => {
        await settingsStore.getState().saveKey(key);
        setKey('');
      },
      { message: 'Key saved.', set: true },
    );
  };

  return (
    <section className="card" aria-labelledby="key-heading">
      <h2 id="key-heading">API key</h2>
      {status !== null && (
        <p className={status.set ? 'key-status key-set' : 'key-status'}>
          {status.set && <strong>A key is set. </strong>}
          {status.message}
        </p>
      )}
      <form className="inline-form" onSubmit={save}>
        <div className="field">
          <label htmlFor="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            value={key}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="api-key-help"
            onChange={(event) => setKey(event.target.value)}
          />
          <p id="api-key-help" className="help">
            It is sent only to the service address below, the one it is saved with, and never shown again once
            saved.
          </p>
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" aria-disabled={busy || undefined}>
            Save key
          </button>
          <button
            type="button"
            aria-disabled={busy || status?.set !== true || undefined}
            onClick={() => {
              if (status?.set === true)
                void act(() => settingsStore.getState().removeKey(), { message: 'Key removed.', set: false });
            }}
          >
            Remove key
          </button>
        </div>
      </form>
      <p role="status" className={shownDone ? 'message message-success' : 'visually-hidden'}>
        {shownDone}
      </p>
      <ErrorMessage error={problem} />
    </section>
  );
}
