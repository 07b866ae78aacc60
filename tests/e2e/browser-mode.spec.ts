import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, startJob } from './support/screens';

/** Another local server, beside `scriptorium ui` on 127.0.0.1, that writes down every request it gets. */
async function startNeighbour(): Promise<{
  url: string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}> {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Neighbour</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('another server on 127.0.0.1 never receives the token, however the browser reaches it', async ({
  app: page,
  ui,
  context,
}) => {
  // The token: the long random part of the address `scriptorium ui` printed.
  const token = /[\w-]{40,}/.exec(ui.url)?.[0] ?? '';
  expect(token).not.toBe('');
  const neighbour = await startNeighbour();
  try {
    // The app at work: a job bought, with the commands and the event stream it takes.
    const title = await startJob(page, ['PLbrowserModeNeighbour_n5']);
    await expectCompleted(page, title, 5);
    await goTo(page, 'Settings');

    // A page of the app leads to the other server (a link, a redirect: what a page can make happen)...
    await page
      .locator('html')
      .evaluate((root, url) => root.ownerDocument.location.assign(url), neighbour.url);
    await expect(page).toHaveTitle('Neighbour');
    // ...and the same browser opens it by itself, and asks it for a resource.
    const other = await context.newPage();
    await other.goto(`${neighbour.url}other/page`);
    await other.evaluate((url) => fetch(`${url}api/anything`), neighbour.url);
    await expect.poll(() => neighbour.seen.length).toBeGreaterThanOrEqual(3);

    for (const request of neighbour.seen) {
      expect(request.url).not.toContain(token);
      expect(request.headers.cookie).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(token);
    }
  } finally {
    await neighbour.close();
  }
});

test('the address without its token shows how to get in, and nothing of the app', async ({ page, ui }) => {
  const response = await page.goto(ui.origin);
  expect(response?.status()).toBe(401);
  await expect(
    page.getByText('This address needs the private address that scriptorium ui printed'),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
});
