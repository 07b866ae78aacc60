import { afterEach, describe, expect, it, vi } from 'vitest';
import { dispatch, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { AppHandlers } from '../../../src/core/app/handlers';
import { tempDir } from '../../support/cli';

// The dispatcher checks every answer against the contract's output schema in development and tests
// (NODE_ENV development or test; vitest sets test), so a handler that answers a shape the faces do not
// expect fails here, loudly, rather than as a blank field in a window.

let app: ScriptoriumApp | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The real handlers, but creditStatus forgets to say "no balance" as null (a field the contract requires). */
function withSlip(handlers: AppHandlers): AppHandlers {
  return {
    ...handlers,
    creditStatus: async (input) => ({ ...(await handlers.creditStatus(input)), balance: undefined as never }),
  };
}

describe("the dispatcher's check of answers", () => {
  it('answers what a handler gives when the contract allows it', async () => {
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
    const answer = await dispatch(app.handlers, 'creditStatus', {});
    expect(answer).toMatchObject({ ok: true, value: { today: 0, total: 0, balance: null } });
  });

  it('refuses, as a bug, an answer the contract does not allow, naming the command and the field', async () => {
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
    const answer = await dispatch(withSlip(app.handlers), 'creditStatus', {});
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('internal');
    expect(answer.error.message).toContain(
      'The creditStatus command answered what the contract does not allow',
    );
    expect(answer.error.message).toContain('balance');
  });

  it('leaves answers unchecked in a build users run (no NODE_ENV)', async () => {
    vi.stubEnv('NODE_ENV', undefined);
    vi.resetModules();
    const production = await import('../../../src/core/app');
    app = production.openApp({ dataDir: tempDir(), keys: production.memoryKeyStore() });
    const answer = await production.dispatch(withSlip(app.handlers), 'creditStatus', {});
    expect(answer).toMatchObject({ ok: true, value: { today: 0, total: 0 } });
  });
});
