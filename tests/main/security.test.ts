import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appOnlyIpc, type IpcMainLike } from '../../src/main/ipc';
import {
  appSenderCheck,
  CONTENT_SECURITY_POLICY,
  guardNavigation,
  hardenSession,
  httpsLink,
  openInBrowser,
  type GuardedContents,
  type SessionLike,
} from '../../src/main/security';

/** A stand-in for Electron's Session that keeps the handlers main installs. */
function fakeSession() {
  const installed: {
    request?: Parameters<SessionLike['setPermissionRequestHandler']>[0];
    check?: Parameters<SessionLike['setPermissionCheckHandler']>[0];
    headers?: Parameters<SessionLike['webRequest']['onHeadersReceived']>[0];
  } = {};
  const session: SessionLike = {
    setPermissionRequestHandler: (handler) => void (installed.request = handler),
    setPermissionCheckHandler: (handler) => void (installed.check = handler),
    webRequest: { onHeadersReceived: (listener) => void (installed.headers = listener) },
  };
  return { session, installed };
}

function fakeShell() {
  const opened: string[] = [];
  return { opened, shell: { openExternal: async (url: string) => void opened.push(url) } };
}

describe('the window session', () => {
  it('denies every permission a page asks for or checks', () => {
    const { session, installed } = fakeSession();
    hardenSession(session);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      installed.request?.({}, permission, (granted) => answers.push(granted));
      expect(answers).toEqual([false]);
      expect(installed.check?.({}, permission)).toBe(false);
    }
  });

  it('sends the CSP with every response, replacing any the server sent', () => {
    const { session, installed } = fakeSession();
    hardenSession(session);
    const responses: Array<Record<string, string[]>> = [];
    installed.headers?.(
      { responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ['script-src *'] } },
      ({ responseHeaders }) => responses.push(responseHeaders),
    );
    expect(responses).toEqual([
      { 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    ]);
  });

  it("is the renderer page's own CSP, which allows no inline script and nothing from elsewhere", () => {
    const page = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(page);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((part) => {
        const [name = '', ...sources] = part.trim().split(/\s+/);
        return [name, sources] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    // Not covered by default-src: no plugins, no <base> to re-aim relative URLs, no form posts.
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
  });
});

describe('links and navigation', () => {
  it('opens only https links in the browser: never file:, smb:, http: or another scheme', async () => {
    const { shell, opened } = fakeShell();
    for (const refused of [
      'file:///etc/passwd',
      'smb://server/share',
      'http://example.com/',
      'javascript:alert(1)',
      'ms-msdt:/id',
      'https://',
      '//example.com/',
      42,
      undefined,
    ]) {
      expect(await openInBrowser(shell, refused), String(refused)).toBe(false);
    }
    expect(await openInBrowser(shell, 'HTTPS://Example.com/docs?q=a b')).toBe(true);
    expect(opened).toEqual(['https://example.com/docs?q=a%20b']);
    expect(httpsLink(`https://example.com/${'a'.repeat(3000)}`)).toBeUndefined();
  });

  it('refuses every navigation and new window, passing the link to the browser', () => {
    const listeners: Array<(event: { url: string; preventDefault(): void }) => void> = [];
    let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
    const contents: GuardedContents = {
      on: (_event, listener) => void listeners.push(listener),
      setWindowOpenHandler: (handler) => void (openHandler = handler),
    };
    const handed: string[] = [];
    guardNavigation(contents, (url) => handed.push(url));

    let prevented = 0;
    for (const url of ['https://evil.example/', 'file:///etc/passwd']) {
      listeners.forEach((listener) => listener({ url, preventDefault: () => prevented++ }));
    }
    expect(prevented).toBe(2);
    expect(openHandler?.({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });
    expect(handed).toEqual(['https://evil.example/', 'file:///etc/passwd', 'https://docs.example/']);
  });
});

describe('IPC senders', () => {
  const frame = (url: string) => ({ senderFrame: { url } });

  it("serves the app's own page only: its file, or the development server's origin", () => {
    const fromFile = appSenderCheck('file:///opt/Scriptorium/out/renderer/index.html');
    expect(fromFile(frame('file:///opt/Scriptorium/out/renderer/index.html#/jobs'))).toBe(true);
    expect(fromFile(frame('file:///home/me/Downloads/evil.html'))).toBe(false);
    expect(fromFile(frame('https://evil.example/'))).toBe(false);
    expect(fromFile({ senderFrame: null })).toBe(false);
    expect(fromFile({})).toBe(false);

    const fromDevServer = appSenderCheck('http://localhost:5173/');
    expect(fromDevServer(frame('http://localhost:5173/index.html'))).toBe(true);
    expect(fromDevServer(frame('http://localhost:5174/'))).toBe(false);
  });

  it('refuses, before any handler runs, a message from another page', async () => {
    const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    };
    const ran: unknown[] = [];
    const ipc = appOnlyIpc(ipcMain, appSenderCheck('file:///app/out/renderer/index.html'));
    ipc.handle('scriptorium:command:listJobs', (_event, input) => ran.push(input));
    const handler = handlers.get('scriptorium:command:listJobs');

    expect(handler?.(frame('https://evil.example/'), { from: 'evil' })).toEqual({
      ok: false,
      error: {
        code: 'access_refused',
        message: expect.stringMatching(/did not come from the Scriptorium window/),
      },
    });
    handler?.(frame('file:///app/out/renderer/index.html'), { from: 'app' });
    expect(ran).toEqual([{ from: 'app' }]);
    ipc.removeHandler('scriptorium:command:listJobs');
    expect(handlers.size).toBe(0);
  });
});
