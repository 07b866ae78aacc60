import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { memoryKeyStore, openApp, PREPARATION_WORKER_FILE, SEARCH_EXPORT_WORKER_FILE } from '../../core/app';
import { startWebServer } from '../../web/server';
import { resolveDataDir, resolveKeyStore, resolveServiceUrl } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { cliHost } from '../host';
import { argumentOrExit } from '../argument-error';
import { parseWholeNumber } from '../job-options';
import { listenFailure, untilStopped } from '../serving';

interface UiFlags {
  port: string;
  open: boolean;
  baseUrl?: string;
  dataDir?: string;
}

/** The built renderer, beside this bundle: out/cli/index.js -> out/renderer. */
const RENDERER_DIR = fileURLToPath(new URL('../renderer', import.meta.url));
/** The worker thread that writes Export results, which both builds put beside this bundle (out/cli, out/main). */
const SEARCH_EXPORT_WORKER = fileURLToPath(new URL(SEARCH_EXPORT_WORKER_FILE, import.meta.url));
/** The worker thread that prepares stored transcripts for search and export, beside this bundle too. */
const PREPARATION_WORKER = fileURLToPath(new URL(PREPARATION_WORKER_FILE, import.meta.url));

/**
 * `scriptorium ui`: the desktop app's screens in a browser, for machines without a display of their
 * own and for end-to-end tests. The key comes from TRANSCRIPT_API_KEY or is entered in Settings,
 * and is then kept in memory only. Queued jobs run in this process until it stops.
 */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('Serve the app in your browser on 127.0.0.1, with a private address for this run.')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '0')
    .option('--no-open', 'print the address without opening a browser')
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL, or Settings)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (flags: UiFlags) => {
      const port = portOf(flags.port);
      if (!existsSync(`${RENDERER_DIR}/index.html`)) {
        throw new CliExit(
          ExitCode.internal,
          'The app is not built yet: run `npm run build` in the project folder.',
        );
      }
      const serviceUrl = resolveServiceUrl(flags.baseUrl);
      const environmentKey = resolveKeyStore(serviceUrl).read();
      const app = openApp({
        dataDir: resolveDataDir(flags.dataDir),
        keys: memoryKeyStore({ key: environmentKey?.key, serviceUrl }),
        ...(serviceUrl !== undefined && { serviceUrl }),
        addressFromSettings: true,
        missingServiceUrlHint: 'enter it in Settings, or start `scriptorium ui` with --base-url.',
        runner: true,
        keepCurrent: true,
        watch: true,
        nativeBinding: cliHost().nativeBinding,
        searchExportWorker: SEARCH_EXPORT_WORKER,
        preparationWorker: PREPARATION_WORKER,
      });
      const server = await startWebServer({ app, port, rendererDir: RENDERER_DIR }).catch(
        async (error: unknown) => {
          await app.close();
          throw listenFailure(error, port);
        },
      );
      process.stdout.write(
        `Scriptorium is open at ${server.url}\nPress Ctrl+C to stop (running jobs continue at the next start).\n`,
      );
      if (flags.open) openInBrowser(server.url);
      await untilStopped();
      await server.close();
      await app.close();
    });
}

function portOf(raw: string): number {
  return argumentOrExit(() => parseWholeNumber('--port', raw, 0, 65_535));
}

/** Best effort: the address is printed anyway. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    spawn(command, args, { detached: true, stdio: 'ignore' })
      .on('error', () => undefined)
      .unref();
  } catch {
    // No browser to open: the printed address is enough.
  }
}
