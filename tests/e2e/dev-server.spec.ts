import { expect, test } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security';

// `npm run dev` serves the renderer from Vite's development server, and the desktop app's main
// process sends its CSP (no inline script) with every response. Vite's fast refresh wants an inline
// script; the renderer loads the same set-up as a module instead, or it would not start at all.
let server: ViteDevServer;

test.beforeAll(async () => {
  server = await createServer({
    root: fileURLToPath(new URL('../../src/renderer', import.meta.url)),
    configFile: false,
    logLevel: 'silent',
    plugins: [react()],
    define: { __APP_VERSION__: JSON.stringify('dev') },
    server: {
      host: '127.0.0.1',
      port: 0,
      headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
    },
  });
  await server.listen();
});

test.afterAll(async () => {
  await server.close();
});

test('the renderer starts on the development server under the app’s Content Security Policy', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.resolvedUrls?.local[0] ?? '');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(errors).toEqual([]);
});
