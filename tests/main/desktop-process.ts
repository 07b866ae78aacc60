import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REGISTER = fileURLToPath(new URL('./electron-stand-in/register.mjs', import.meta.url));

/** What the stand-in reports: events sent to the window, notifications shown, dialogs, links... */
export type Report = { type: string } & Record<string, unknown>;

export interface DesktopProcess {
  child: ChildProcess;
  reports: Report[];
  /** Asks the stand-in to do something (see `operations` in electron.mjs) and resolves with its answer. */
  request<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>;
  /** Resolves with the first report, past or future, that `matches`. */
  waitFor(matches: (report: Report) => boolean, timeoutMs?: number): Promise<Report>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

export interface DesktopEnvironment {
  project: string;
  userData: string;
  downloads: string;
  /** Hex of 32 bytes: the stand-in keychain's secret. */
  keychainSecret: string;
  lockHeld?: boolean;
  /** app.isPackaged, as in an installed app; project is then the app's folder (app.asar extracted). */
  packaged?: boolean;
  /** A packaged app's process.resourcesPath (where it carries its better-sqlite3). */
  resourcesPath?: string;
  /** What the user typed after the executable's name. */
  args?: string[];
  /** More of the environment (the CLI's SCRIPTORIUM_DATA_DIR, say). */
  env?: Record<string, string>;
}

/** Runs the built main bundle of `project` under Node, with the `electron` stand-in. */
export function startDesktop(environment: DesktopEnvironment): DesktopProcess {
  const child = spawn(
    process.execPath,
    ['--import', REGISTER, join(environment.project, 'out/main/index.js'), ...(environment.args ?? [])],
    {
      cwd: environment.project,
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        STAND_IN_APP_PATH: environment.project,
        STAND_IN_USER_DATA: environment.userData,
        STAND_IN_DOWNLOADS: environment.downloads,
        STAND_IN_KEYCHAIN_SECRET: environment.keychainSecret,
        ...(environment.lockHeld && { STAND_IN_LOCK_HELD: '1' }),
        ...(environment.packaged && { STAND_IN_PACKAGED: '1' }),
        ...(environment.resourcesPath && { STAND_IN_RESOURCES_PATH: environment.resourcesPath }),
        ...environment.env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const reports: Report[] = [];
  const waiters = new Set<{ matches: (report: Report) => boolean; resolve: (report: Report) => void }>();
  const replies = new Map<number, (reply: { value?: unknown; error?: string }) => void>();
  let nextId = 1;
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.on('message', (message: Report & { id?: number; value?: unknown; error?: string }) => {
    if (message.type === 'reply' && message.id !== undefined) {
      replies.get(message.id)?.({ value: message.value, error: message.error });
      replies.delete(message.id);
      return;
    }
    reports.push(message);
    for (const waiter of waiters) {
      if (!waiter.matches(message)) continue;
      waiters.delete(waiter);
      waiter.resolve(message);
    }
  });
  // On close, when stdout and stderr have been read to their end.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

  return {
    child,
    reports,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    request<T>(op: string, args: Record<string, unknown> = {}) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        replies.set(id, (reply) =>
          reply.error !== undefined ? reject(new Error(reply.error)) : resolve(reply.value as T),
        );
        child.send({ id, op, ...args });
      });
    },
    waitFor(matches, timeoutMs = 15_000) {
      const seen = reports.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise<Report>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No such report in ${timeoutMs} ms; stderr:\n${stderr}`));
        }, timeoutMs);
        const waiter = {
          matches,
          resolve: (report: Report) => {
            clearTimeout(timer);
            resolve(report);
          },
        };
        waiters.add(waiter);
      });
    },
  };
}
