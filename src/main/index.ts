import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { memoryKeyStore, openApp } from '../core/app';
import { bindCommands, forwardEvents } from './ipc';

// The Electron shell only opens the window and passes messages; the engine lives in core.
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererFile = fileURLToPath(new URL('../renderer/index.html', import.meta.url));

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 720,
    show: false,
    title: 'Scriptorium',
    webPreferences: { preload: preloadPath, sandbox: true, contextIsolation: true, nodeIntegration: false },
  });
  window.once('ready-to-show', () => window.show());
  // Links open in the user's browser, never inside the app.
  window.webContents.setWindowOpenHandler(({ url }) => {
    void shell.openExternal(url);
    return { action: 'deny' };
  });
  const devServer = process.env['ELECTRON_RENDERER_URL'];
  if (devServer) void window.loadURL(devServer);
  else void window.loadFile(rendererFile);
  return window;
}

void app.whenReady().then(() => {
  const scriptorium = openApp({
    dataDir: app.getPath('userData'),
    keys: memoryKeyStore(process.env['TRANSCRIPT_API_KEY']),
    runner: true,
    watch: true,
  });
  bindCommands(ipcMain, scriptorium.handlers);
  const window = createWindow();
  const stopForwarding = forwardEvents(scriptorium.on, window.webContents);
  app.on('window-all-closed', () => {
    stopForwarding();
    void scriptorium.close().finally(() => app.quit());
  });
});
