import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import { httpApi } from '../../../src/renderer/src/transport/http';
import { ContractError } from '../../../src/shared/contract-error';
import { ERROR_CODES, type ErrorCode } from '../../../src/shared/errors';
import { startWebServer, type RunningWebServer } from '../../../src/web/server';
import { tempDir } from '../../support/cli';
import { FACES, overHttp, overIpc, type Connected } from '../../support/transports';

// Every failure a face can see is a ContractError with its code, whichever way the face reaches the
// app; and what the way itself refuses or loses (browser mode's server, a dropped connection) too.

let app: ScriptoriumApp;
let face: Connected | undefined;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await face?.close();
  face = undefined;
  await app.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function open(): ScriptoriumApp {
  app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
  return app;
}

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`expected a ContractError, got ${String(error)}`);
  return error;
}

describe.each(FACES)('over %s', (_name, connect) => {
  it('every code a command fails with arrives with its code and its message', async () => {
    let next: ErrorCode = 'internal';
    const real = open();
    const failing: ScriptoriumApp = {
      ...real,
      handlers: {
        ...real.handlers,
        keyStatus: async () => {
          throw new AppError(next, `Plain words for ${next}.`);
        },
      },
    };
    face = await connect(failing);
    for (const code of ERROR_CODES) {
      next = code;
      const error = await failure(face.api.keyStatus({}));
      expect({ code: error.code, message: error.message }).toEqual({
        code,
        message: `Plain words for ${code}.`,
      });
    }
  });

  it("the dispatcher's own refusal (an input that does not parse) is invalid_input", async () => {
    face = await connect(open());
    expect((await failure(face.api.jobDetail({ jobId: -1 }))).code).toBe('invalid_input');
    expect((await failure(face.api.jobDetail({ jobId: 7 }))).code).toBe('job_not_found');
  });
});

describe('Electron IPC', () => {
  it('a main process that no longer answers (the app closing) is unreachable', async () => {
    const ipc = await overIpc(open());
    await ipc.close();
    const error = await failure(ipc.api.listJobs({}));
    expect([error.code, error.message]).toEqual([
      'unreachable',
      expect.stringMatching(/lost its connection/),
    ]);
  });
});

describe("browser mode's own refusals, through the renderer's HTTP transport", () => {
  async function server(options: { maxBodyBytes?: number } = {}): Promise<RunningWebServer> {
    const running = await startWebServer({ app: open(), port: 0, ...options });
    cleanups.push(() => running.close());
    return running;
  }

  it('a dropped connection is unreachable, with a plain message', async () => {
    face = await overHttp(open());
    await face.server!.close();
    const error = await failure(face.api.listJobs({}));
    expect(error.code).toBe('unreachable');
    expect(error.message).toMatch(/cannot be reached.*scriptorium ui/);
  });

  it('a wrong token is access_refused', async () => {
    const running = await server();
    const api = httpApi({ base: `${running.origin}/`, token: 'not-the-token' });
    cleanups.push(async () => api.close());
    const error = await failure(api.listJobs({}));
    expect(error.code).toBe('access_refused');
    expect(error.message).toMatch(/the one `scriptorium ui` printed/);
  });

  it('a page of an earlier run (its token in the path) is access_refused', async () => {
    const running = await server();
    const api = httpApi({ base: `${running.origin}/s/an-earlier-token/` });
    cleanups.push(async () => api.close());
    expect((await failure(api.listJobs({}))).code).toBe('access_refused');
  });

  it('a request too large is invalid_input, saying the limit', async () => {
    const running = await server({ maxBodyBytes: 1024 });
    const api = httpApi({ base: `${running.origin}/`, token: running.token });
    cleanups.push(async () => api.close());
    const sources = Array.from({ length: 100 }, (_, index) => ({
      where: `line ${index}`,
      text: 'dQw4w9WgXcQ',
    }));
    const error = await failure(api.validateSources({ sources }));
    expect([error.code, error.message]).toEqual([
      'invalid_input',
      expect.stringMatching(/larger than the 1024 bytes/),
    ]);
  });

  it('an answer without a code (a proxy in between) is told by its status', async () => {
    const statuses = [502, 403, 404];
    const proxy = createServer((request, response) => {
      const command = request.url?.includes('/api/command/') ?? false;
      response.writeHead((command ? statuses.shift() : undefined) ?? 503, { 'content-type': 'text/html' });
      response.end('<h1>Bad gateway</h1>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(() => resolve())));
    open();
    const api = httpApi({ base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/` });
    cleanups.push(async () => api.close());
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await failure(api.listJobs({}))).code);
    expect(codes).toEqual(['internal', 'access_refused', 'invalid_input']);
  });
});
