// A stand-in for the `electron` module, so the built main bundle runs under Node in a child process.
// It keeps what main asks of Electron and reports it to the test over the child's IPC channel; the
// test drives it (invoke a channel, navigate, quit...) with messages. See desktop-process.ts.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = process.env;
const report = (message) => process.send?.(message);

// As Electron sets them up before the main script runs: a packaged app's argv is its executable and
// then the user's arguments; Electron run on a folder (the default app) has that folder second.
if (env.STAND_IN_PACKAGED === '1') process.argv.splice(1, 1);
else process.defaultApp = true;
if (env.STAND_IN_RESOURCES_PATH) process.resourcesPath = env.STAND_IN_RESOURCES_PATH;

class StandInApp extends EventEmitter {
  isPackaged = env.STAND_IN_PACKAGED === '1';

  whenReady() {
    return Promise.resolve();
  }
  requestSingleInstanceLock() {
    report({ type: 'lock', granted: env.STAND_IN_LOCK_HELD !== '1' });
    return env.STAND_IN_LOCK_HELD !== '1';
  }
  setAppUserModelId() {}
  getAppPath() {
    return env.STAND_IN_APP_PATH;
  }
  getVersion() {
    return JSON.parse(readFileSync(join(env.STAND_IN_APP_PATH, 'package.json'), 'utf8')).version;
  }
  getPath(name) {
    if (name === 'userData') return env.STAND_IN_USER_DATA;
    if (name === 'downloads') return env.STAND_IN_DOWNLOADS;
    throw new Error(`The stand-in knows no path '${name}'`);
  }
  /** As Electron: before-quit may be prevented; then windows close and the process ends. */
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    for (const window of BrowserWindow.getAllWindows()) window.destroy();
    this.emit('will-quit', { preventDefault() {} });
    this.emit('quit');
    this.exit(0);
  }
  exit(code = 0) {
    report({ type: 'exit', code });
    process.exitCode = code;
    process.disconnect?.();
    setImmediate(() => process.exit(code));
  }
}

export const app = new StandInApp();

class WebContents extends EventEmitter {
  windowOpenHandler;
  constructor(window) {
    super();
    this.window = window;
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  send(channel, payload) {
    if (this.window.isDestroyed()) throw new Error('Object has been destroyed');
    report({ type: 'event', channel, payload });
  }
}

const windows = [];

export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows.filter((window) => !window.isDestroyed());
  }
  static getFocusedWindow() {
    return BrowserWindow.getAllWindows().find((window) => window.focused) ?? null;
  }

  constructor(options) {
    super();
    this.options = options;
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
    this.visible = false;
    this.focused = false;
    this.maximized = false;
    this.destroyed = false;
    this.page = null;
    this.webContents = new WebContents(this);
    windows.push(this);
  }
  loadFile(file) {
    this.page = pathToFileURL(file).href;
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  loadURL(url) {
    this.page = url;
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show() {
    this.visible = true;
    this.focused = true;
    report({ type: 'window', shown: true });
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused = true;
    report({ type: 'window', focused: true });
  }
  isMinimized() {
    return false;
  }
  restore() {}
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  /** The user closes the window: as Electron, 'close', 'closed', then window-all-closed. */
  close() {
    this.destroy();
    if (BrowserWindow.getAllWindows().length === 0) app.emit('window-all-closed');
  }
  destroy() {
    if (this.destroyed) return;
    this.emit('close', { preventDefault() {} });
    this.destroyed = true;
    this.emit('closed');
  }
}

const handlers = new Map();

export const ipcMain = {
  handle(channel, listener) {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    handlers.set(channel, listener);
  },
  removeHandler(channel) {
    handlers.delete(channel);
  },
};

/** Encrypts for real (AES-256-GCM under the test's secret), as the system keychain would. */
export const safeStorage = {
  isEncryptionAvailable: () => env.STAND_IN_NO_ENCRYPTION !== '1',
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString(plainText) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keychainSecret(), iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  },
  decryptString(encrypted) {
    const decipher = createDecipheriv('aes-256-gcm', keychainSecret(), encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
  },
};

function keychainSecret() {
  return Buffer.from(env.STAND_IN_KEYCHAIN_SECRET, 'hex');
}

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    report({ type: 'notification', title: this.options.title, body: this.options.body });
  }
}

export const dialog = {
  async showSaveDialog(...args) {
    const options = args.at(-1);
    report({ type: 'saveDialog', options, modal: args.length === 2 });
    return { canceled: false, filePath: join(env.STAND_IN_DOWNLOADS, 'chosen-corpus') };
  },
  async showMessageBox(...args) {
    const options = args.at(-1);
    report({ type: 'messageBox', options });
    return { response: 0, checkboxChecked: false };
  },
  showErrorBox(title, content) {
    report({ type: 'errorBox', title, content });
  },
};

export const shell = {
  async openExternal(url) {
    report({ type: 'openExternal', url });
  },
  showItemInFolder(path) {
    report({ type: 'showItemInFolder', path });
  },
};

/** The menu main sets, reported as roles and labels (click handlers cannot cross to the test). */
export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    const describe = (items) =>
      items.map((item) => ({
        ...(item.label !== undefined && { label: item.label }),
        ...(item.role !== undefined && { role: item.role }),
        ...(item.type !== undefined && { type: item.type }),
        ...(Array.isArray(item.submenu) && { submenu: describe(item.submenu) }),
      }));
    report({ type: 'menu', items: menu === null ? null : describe(menu.template) });
  },
};

const sessionHandlers = {};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (sessionHandlers.request = handler),
    setPermissionCheckHandler: (handler) => (sessionHandlers.check = handler),
    webRequest: { onHeadersReceived: (listener) => (sessionHandlers.headers = listener) },
  },
};

export const screen = {
  getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }),
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }],
};

/** What the test may ask; each answer goes back as { type: 'reply', id, ... }. */
const operations = {
  /** Sends `input` on `channel` as the page `frameUrl` (default: the page the window loaded). */
  async invoke({ channel, input, frameUrl }) {
    const window = BrowserWindow.getAllWindows()[0];
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event = { sender: window?.webContents, senderFrame: { url: frameUrl ?? window?.page } };
    return handler(event, input);
  },
  state() {
    return {
      channels: [...handlers.keys()],
      windows: windows.map((window) => ({
        options: window.options,
        page: window.page,
        visible: window.visible,
        destroyed: window.destroyed,
        hasWindowOpenHandler: window.webContents.windowOpenHandler !== undefined,
      })),
      session: Object.keys(sessionHandlers).sort(),
    };
  },
  navigate({ url }) {
    let prevented = false;
    const window = BrowserWindow.getAllWindows()[0];
    window.webContents.emit('will-navigate', { url, preventDefault: () => (prevented = true) }, url);
    return { prevented };
  },
  openWindow({ url }) {
    return BrowserWindow.getAllWindows()[0].webContents.windowOpenHandler({ url });
  },
  permission({ permission }) {
    let granted;
    sessionHandlers.request(null, permission, (answer) => (granted = answer), {});
    return { granted, checked: sessionHandlers.check(null, permission, 'file://', {}) };
  },
  headers() {
    let headers;
    sessionHandlers.headers(
      { url: 'http://localhost:5173/', responseHeaders: {} },
      (answer) => (headers = answer),
    );
    return headers;
  },
  secondInstance() {
    BrowserWindow.getAllWindows()[0]?.hide();
    app.emit('second-instance', {}, ['scriptorium'], process.cwd());
    return { visible: BrowserWindow.getAllWindows()[0]?.visible };
  },
  closeWindow() {
    BrowserWindow.getAllWindows()[0].close();
    return {};
  },
};

process.on('message', async ({ id, op, ...args }) => {
  try {
    report({ type: 'reply', id, value: await operations[op](args) });
  } catch (error) {
    report({ type: 'reply', id, error: error instanceof Error ? error.message : String(error) });
  }
});
