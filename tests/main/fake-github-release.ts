import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

// A GitHub release as electron-updater reads one, served on 127.0.0.1: the repository's releases
// feed (releases.atom), the latest release's tag (GitHub Enterprise's API path, which
// electron-updater asks a host other than github.com), and the release's files: a latest*.yml
// electron-builder would write, and the packages it names. Every request is kept, to check that the
// app asks nothing else.

const require = createRequire(import.meta.url);
const yaml = createRequire(require.resolve('electron-updater/package.json'))('js-yaml') as {
  dump(value: unknown): string;
};

export const OWNER = 'scriptorium-project';
export const REPO = 'scriptorium';

export interface ReleaseFile {
  name: string;
  /** What the release says the file is (its SHA-512 and size go into latest*.yml). */
  bytes: Buffer;
  /** What is served instead, when the download is tampered with on the way. */
  served?: Buffer;
}

export interface FakeRelease {
  version: string;
  /** The update information file, as electron-builder names it: latest-linux.yml, latest.yml... */
  channelFile: string;
  files: ReleaseFile[];
}

export interface FakeGitHub {
  /** host:port, for the github provider's `host`. */
  host: string;
  requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** Serves `release` (or, when undefined, a repository without any release yet). */
export async function fakeGitHubRelease(release: FakeRelease | undefined): Promise<FakeGitHub> {
  const requests: FakeGitHub['requests'] = [];
  const base = `/${OWNER}/${REPO}/releases`;
  const tag = release === undefined ? undefined : `v${release.version}`;
  const routes = new Map<string, { type: string; body: Buffer }>();
  const text = (type: string, body: string) => ({ type, body: Buffer.from(body) });
  routes.set(
    `${base}.atom`,
    text(
      'application/atom+xml',
      `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Release notes from ${REPO}</title>
  ${
    tag === undefined
      ? ''
      : `<entry>
    <id>tag:github.com,2008:Repository/1/${tag}</id>
    <updated>2026-01-02T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/${OWNER}/${REPO}/releases/tag/${tag}"/>
    <title>Scriptorium ${release!.version}</title>
    <content type="html">&lt;p&gt;What changed.&lt;/p&gt;</content>
  </entry>`
  }
</feed>`,
    ),
  );
  if (release !== undefined && tag !== undefined) {
    routes.set(
      `/api/v3/repos/${OWNER}/${REPO}/releases/latest`,
      text('application/json', JSON.stringify({ tag_name: tag })),
    );
    routes.set(
      `${base}/download/${tag}/${release.channelFile}`,
      text(
        'text/yaml',
        yaml.dump({
          version: release.version,
          files: release.files.map((file) => ({
            url: file.name,
            sha512: sha512(file.bytes),
            size: file.bytes.length,
          })),
          path: release.files[0]!.name,
          sha512: sha512(release.files[0]!.bytes),
          releaseDate: '2026-01-02T10:00:00.000Z',
        }),
      ),
    );
    for (const file of release.files) {
      routes.set(`${base}/download/${tag}/${file.name}`, {
        type: 'application/octet-stream',
        body: file.served ?? file.bytes,
      });
    }
  }
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const route = routes.get(request.url ?? '');
    if (request.method !== 'GET' || route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    response
      .writeHead(200, { 'content-type': route.type, 'content-length': route.body.length })
      .end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
