import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openApp, SEARCH_EXPORT_WORKER_FILE, toAppError, type ScriptoriumApp } from '../core/app';
import { bindDesktopBridge } from './desktop-bridge';
import { ExportDestinations, exportsOnlyWhereChosen } from './export-destinations';
import { appOnlyIpc, bindCommands, forwardEvents } from './ipc';
import { KEY_FILE, safeStorageKeyStore } from './key-vault';
import { applicationMenu } from './menu';
import { cliArguments, runsWithoutSandbox } from './command-line';
import { runCliThenExit } from './launch';
import { nativeBindingFor } from './native-binding';
import { notifyJobOutcomes, notifyNewRelease, notifyNewVideos, type JobNotice } from './notifications';
import { closeBeforeQuit } from './quit';
import { sayRunningWithoutSandbox } from './sandbox-notice';
import { appSenderCheck, hardenSession, openInBrowser } from './security';
import { desktopUpdates } from './updates/desktop-updates';
import { openMainWindow } from './window';
import { placeWindow, readWindowState, saveWindowState, WINDOW_STATE_FILE } from './window-state';

// The Electron shell: it opens the window, keeps the key and passes messages; the engine lives in core.

/** The installer's application id; Windows shows notifications only for a known one. */
const APP_ID = 'app.scriptorium.desktop';
const PRELOAD = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const RENDERER_PAGE = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
/** The worker thread that writes Export results, which the build puts beside this bundle (in app.asar). */
const SEARCH_EXPORT_WORKER = fileURLToPath(new URL(SEARCH_EXPORT_WORKER_FILE, import.meta.url));

/** electron-vite's development server, when `npm run dev` runs the app; never in a packaged app. */
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];

/** The better-sqlite3 this app loads: the package's own, or a checkout's Electron build. */
const nativeBinding = nativeBindingFor({
  isPackaged: app.isPackaged,
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
  electronVersion: process.versions.electron,
});
const cliArgs = cliArguments(process.argv, process.defaultApp === true);

if (cliArgs !== undefined) {
  // With a command the app is the CLI. Awaited here, at the top of the main script, it runs to its
  // end while Electron waits for this script, before it sets up any window system: a cron job or
  // an ssh session needs no display.
  await runCliThenExit(cliArgs, nativeBinding);
} else if (!app.requestSingleInstanceLock()) {
  // Another Scriptorium is running: it shows its window (second-instance), and this one leaves.
  app.quit();
} else {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  app
    .whenReady()
    .then(startDesktop)
    .catch((error: unknown) => failToStart(error));
}

async function startDesktop(): Promise<void> {
  const userData = app.getPath('userData');
  const updates = desktopUpdates();
  let scriptorium: ScriptoriumApp;
  try {
    scriptorium = openApp({
      dataDir: userData,
      keys: safeStorageKeyStore({ safeStorage, file: join(userData, KEY_FILE) }),
      addressFromSettings: true,
      runner: true,
      keepCurrent: true,
      watch: true,
      nativeBinding,
      searchExportWorker: SEARCH_EXPORT_WORKER,
      updates: updates.updates,
    });
  } catch (error) {
    failToStart(error, !app.isPackaged && nativeBinding === undefined ? CHECKOUT_HINT : undefined);
    return;
  }

  // A packaged app has a menu of its own, without reloads or developer tools.
  if (app.isPackaged) Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenu(process.platform)));
  if (runsWithoutSandbox(process.argv, process.env)) {
    sayRunningWithoutSandbox({
      userData,
      show: (title, message) => void dialog.showMessageBox({ type: 'warning', title, message }),
      log: (line) => console.warn(line),
    });
  }
  let window: BrowserWindow | undefined;
  const pageUrl = devServerUrl ?? pathToFileURL(RENDERER_PAGE).href;
  const ipc = appOnlyIpc(ipcMain, appSenderCheck(pageUrl));
  hardenSession(session.defaultSession);
  const exportDestinations = new ExportDestinations(process.platform);
  bindCommands(ipc, exportsOnlyWhereChosen(scriptorium.handlers, exportDestinations));
  bindDesktopBridge(
    ipc,
    {
      showSaveDialog: (options) =>
        window && !window.isDestroyed()
          ? dialog.showSaveDialog(window, options)
          : dialog.showSaveDialog(options),
      showItemInFolder: (path) => shell.showItemInFolder(path),
      openInBrowser: (url) => openInBrowser(shell, url),
      downloadsFolder: app.getPath('downloads'),
    },
    exportDestinations,
  );

  const showWindow = (): void => {
    if (window === undefined || window.isDestroyed()) {
      window = createWindow(scriptorium, userData);
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  notifyJobOutcomes(
    await scriptorium.handlers.listJobs({}),
    {
      onJobChanged: (listener) => scriptorium.on('jobChanged', listener),
      onJobRemoved: (listener) => scriptorium.on('jobRemoved', ({ jobId }) => listener(jobId)),
    },
    (notice) => showNotification(notice, showWindow),
  );
  notifyNewVideos(
    (listener) => scriptorium.on('jobSynced', listener),
    (notice) => showNotification(notice, showWindow),
  );
  notifyNewRelease(
    (listener) => scriptorium.on('updateChanged', listener),
    (notice) => showNotification(notice, showWindow),
  );

  await updates.watch(scriptorium);

  app.on('second-instance', showWindow);
  // macOS keeps the app (and its running jobs) when the window closes; the Dock icon reopens it.
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  closeBeforeQuit(
    app,
    () => scriptorium.close(),
    () => BrowserWindow.getAllWindows().forEach((open) => open.hide()),
  );
  showWindow();
}

function createWindow(scriptorium: ScriptoriumApp, userData: string): BrowserWindow {
  const stateFile = join(userData, WINDOW_STATE_FILE);
  const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map(
    (display) => display.workArea,
  );
  const window = openMainWindow({
    placement: placeWindow(readWindowState(stateFile), workAreas),
    preload: PRELOAD,
    devTools: !app.isPackaged,
    page: devServerUrl !== undefined ? { url: devServerUrl } : { file: RENDERER_PAGE },
    openInBrowser: (url) => void openInBrowser(shell, url),
    onClose: (state) => {
      try {
        saveWindowState(stateFile, state);
      } catch (error) {
        // A place not remembered is no reason to stand in the way of closing.
        console.warn('Scriptorium could not remember the window place:', error);
      }
    },
  });
  const stopForwarding = forwardEvents(scriptorium.on, window.webContents);
  window.on('closed', stopForwarding);
  return window;
}

function showNotification(notice: Pick<JobNotice, 'title' | 'body'>, showWindow: () => void): void {
  if (!Notification.isSupported()) return;
  const notification = new Notification({ title: notice.title, body: notice.body });
  notification.on('click', showWindow);
  notification.show();
}

/** What to do when a checkout's database cannot open without a better-sqlite3 built for Electron. */
const CHECKOUT_HINT =
  'This checkout has no better-sqlite3 built for Electron: run `npm run electron:install` in the project folder (`npm start` does it for you).';

function failToStart(error: unknown, hint?: string): void {
  const message = toAppError(error).message;
  dialog.showErrorBox('Scriptorium cannot start', hint === undefined ? message : `${message}\n\n${hint}`);
  app.exit(1);
}
