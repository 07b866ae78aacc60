import { BrowserWindow } from 'electron';
import { guardNavigation } from './security';
import { MIN_SIZE, type Placement, type SavedWindow } from './window-state';

export interface MainWindowOptions {
  placement: Placement;
  /** The preload script (CommonJS, as a sandboxed preload must be). */
  preload: string;
  /** Whether the developer tools can open: not in a packaged app. */
  devTools: boolean;
  /** The development server's address, or the built renderer's index.html. */
  page: { url: string } | { file: string };
  /** Opens a link the page tried to navigate to or open in a window (https only). */
  openInBrowser(url: string): void;
  /** Called as the window closes, with where it was, to open it there next time. */
  onClose(state: SavedWindow): void;
}

/**
 * The app's one window. Its page runs sandboxed and isolated from Node and from the preload, with
 * web security on; it can neither navigate away nor open windows (guardNavigation).
 */
export function openMainWindow(options: MainWindowOptions): BrowserWindow {
  const { maximized, ...bounds } = options.placement;
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Scriptorium',
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // A middle click would otherwise open links in a new window of the app's own.
      disableBlinkFeatures: 'Auxclick',
      devTools: options.devTools,
    },
  });
  guardNavigation(window.webContents, options.openInBrowser);
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  window.on('close', () => options.onClose({ ...window.getNormalBounds(), maximized: window.isMaximized() }));
  if ('url' in options.page) void window.loadURL(options.page.url);
  else void window.loadFile(options.page.file);
  return window;
}
