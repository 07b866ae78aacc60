/**
 * The renderer's Content Security Policy: no inline script, nothing from outside the app, and none of
 * what default-src does not cover (plugins, a <base> re-aiming relative URLs, form posts). The same
 * text is the meta tag of src/renderer/index.html (a test keeps the two equal); main also sends it
 * as a header, which covers pages served by the development server.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'";

/** The slice of Electron's Session this module hardens (a fake stands in for it in tests). */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
}

/**
 * Denies every permission a page may ask for (camera, microphone, notifications from the page,
 * geolocation, ...): the app needs none; its notifications come from the main process. Sends the CSP
 * with every response.
 */
export function hardenSession(session: SessionLike): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...withoutHeader(details.responseHeaders ?? {}, 'content-security-policy'),
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
}

function withoutHeader(headers: Record<string, string[]>, name: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

/** The slice of Electron's WebContents the navigation guard needs. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: { url: string; preventDefault(): void }) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * The window never leaves the app: every navigation and every new window is refused, and the link
 * that asked for it opens in the user's browser when it is an https link (openInBrowser decides).
 */
export function guardNavigation(contents: GuardedContents, openInBrowser: (url: string) => void): void {
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    openInBrowser(event.url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: 'deny' };
  });
}

/** The link as a URL when it is an https link, the only kind the app hands to the user's browser. */
export function httpsLink(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The slice of Electron's shell that opens links. */
export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

/**
 * Opens a link in the user's browser when it is an https link; anything else (file:, smb:, http:,
 * a custom scheme) is refused and resolves false. The one place the app hands a URL to the system.
 */
export async function openInBrowser(shell: ShellLike, value: unknown): Promise<boolean> {
  const link = httpsLink(value);
  if (link === undefined) return false;
  // Reviewed: only an https URL, parsed and normalised just above, reaches the system.
  await shell.openExternal(link.href); // eng-disable OPEN_EXTERNAL_JS_CHECK
  return true;
}

/** What IPC tells of who sent a message. */
export interface IpcSender {
  senderFrame?: { url: string } | null;
}

/**
 * Whether an IPC message comes from the app's own page (its file, or the development server's
 * origin), as Electron's security checklist asks: no other page should ever be loaded, but a message
 * from one is refused all the same.
 */
export function appSenderCheck(appUrl: string): (event: IpcSender) => boolean {
  const app = new URL(appUrl);
  return (event) => {
    const frameUrl = event.senderFrame?.url;
    if (frameUrl === undefined) return false;
    let sender: URL;
    try {
      sender = new URL(frameUrl);
    } catch {
      return false;
    }
    if (app.protocol === 'file:') return sender.protocol === 'file:' && sender.pathname === app.pathname;
    return sender.origin === app.origin;
  };
}
