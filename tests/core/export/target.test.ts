import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkExportTarget, ExportTargetError, writeCorpus } from '../../../src/core/export';
import type { ExportManifest } from '../../../src/core/export';

const manifest: ExportManifest = {
  tool: { name: 'Scriptorium', version: '0.1.0' },
  job_id: '1',
  sources: ['dQw4w9WgXcQ'],
  skipped_sources: [],
  failed_sources: [],
  options: {},
  counts: { videos: 1, ok: 1, unavailable: 0, failed: 0, pending: 0, skipped: 0, sources_failed: 0 },
  credits_spent: 1,
  credits_possible: 0,
  finished_at: '2025-01-02T03:04:05.000Z',
  version: 1,
  versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 6, retried: 0, changed: 0 }],
  job_finished: true,
  all_videos_transcribed: true,
};

/** A real corpus ZIP, as the export writes it. */
async function corpusAt(path: string, overrides: Partial<ExportManifest> = {}): Promise<string> {
  await writeCorpus(
    {
      manifest: { ...manifest, ...overrides },
      videos: () => [
        {
          number: 1,
          videoId: 'dQw4w9WgXcQ',
          title: 'Rick',
          source: 'dQw4w9WgXcQ',
          status: 'ok',
          language: 'en',
          segmentCount: 1,
          segments: [{ text: 'Never gonna', start: 0, duration: 1 }],
        },
      ],
    },
    path,
  );
  return path;
}

/**
 * A ZIP written by Python's zipfile, a writer that shares no code with ours: `entries` in order.
 * `streamed` writes to a pipe, so that every entry carries a data descriptor; `zip64` gives the
 * local headers a ZIP64 extra field.
 */
function pythonZip(
  path: string,
  entries: Array<[string, string]>,
  { streamed = false, zip64 = false } = {},
): string {
  const script = `
import json, sys, zipfile
entries, streamed, zip64 = json.loads(sys.argv[1]), sys.argv[2] == "1", sys.argv[3] == "1"
out = sys.stdout.buffer if streamed else open(sys.argv[4], "wb")
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in entries:
        with z.open(name, "w", force_zip64=zip64) as entry:
            entry.write(text.encode("utf-8"))
`;
  const args = ['-c', script, JSON.stringify(entries), streamed ? '1' : '0', zip64 ? '1' : '0', path];
  const bytes = execFileSync('python3', args);
  if (streamed) writeFileSync(path, bytes);
  return path;
}

const manifestText = (toolName: string) =>
  `${JSON.stringify({ tool: { name: toolName, version: '9.9.9' }, job_id: '1' }, null, 2)}\n`;

function refusal(path: string): ExportTargetError {
  try {
    checkExportTarget(path);
  } catch (error) {
    if (error instanceof ExportTargetError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

let dir: string;
const servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-target-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('checkExportTarget accepts', () => {
  it('a path where nothing is yet, and an empty file', () => {
    expect(() => checkExportTarget(join(dir, 'new.zip'))).not.toThrow();
    writeFileSync(join(dir, 'empty.zip'), '');
    expect(() => checkExportTarget(join(dir, 'empty.zip'))).not.toThrow();
  });

  it('a corpus that Scriptorium wrote, even one whose manifest is far longer than the part read', async () => {
    await corpusAt(join(dir, 'small.zip'));
    expect(() => checkExportTarget(join(dir, 'small.zip'))).not.toThrow();
    // 30,000 skipped sources: a manifest of some megabytes, highly compressible.
    const skipped = Array.from({ length: 30_000 }, (_, i) => ({
      source: `dQw4w9WgXcQ`,
      reason: `line ${i + 2}: already listed at line 1`,
    }));
    await corpusAt(join(dir, 'large.zip'), { skipped_sources: skipped });
    expect(() => checkExportTarget(join(dir, 'large.zip'))).not.toThrow();
  });

  it('a Scriptorium manifest whose sizes come in a data descriptor, or whose header has a ZIP64 field', () => {
    const entries: Array<[string, string]> = [
      ['manifest.json', manifestText('Scriptorium')],
      ['index.csv', 'video_id\n'],
    ];
    expect(() =>
      checkExportTarget(pythonZip(join(dir, 'piped.zip'), entries, { streamed: true })),
    ).not.toThrow();
    expect(() =>
      checkExportTarget(pythonZip(join(dir, 'zip64.zip'), entries, { zip64: true })),
    ).not.toThrow();
  });
});

describe('checkExportTarget refuses, saying what the path is', () => {
  it('a folder', () => {
    const folder = join(dir, 'corpus.zip');
    mkdirSync(folder);
    expect(refusal(folder).message).toBe(
      `Cannot write ${folder}: it is a folder. Choose a file name for the ZIP, such as ${join(folder, 'corpus.zip')}.`,
    );
  });

  it('a symbolic link, even to a corpus that Scriptorium wrote', async () => {
    const corpus = await corpusAt(join(dir, 'real.zip'));
    const link = join(dir, 'link.zip');
    symlinkSync(corpus, link);
    expect(refusal(link).message).toMatch(
      new RegExp(
        `^Cannot write ${link}: it is a symbolic link \\(to ${corpus}\\).*Give the path of the file itself`,
      ),
    );
    symlinkSync(join(dir, 'nowhere.zip'), join(dir, 'dangling.zip'));
    expect(refusal(join(dir, 'dangling.zip')).message).toMatch(/symbolic link/);
  });

  it('a named pipe, at once and without waiting for a writer', () => {
    const fifo = join(dir, 'pipe.zip');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo).message).toMatch(/it is a named pipe, not a file\. Choose a file name/);
  });

  it('a device', () => {
    expect(refusal('/dev/null').message).toBe(
      'Cannot write /dev/null: it is a device, not a file. Choose a file name for the ZIP, such as corpus.zip.',
    );
  });

  it('a socket', async () => {
    const socket = join(dir, 'socket.zip');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    expect(refusal(socket).message).toMatch(/it is a socket, not a file/);
  });

  it.each([
    ['a text file', (path: string) => writeFileSync(path, 'my thesis, chapter 1\n')],
    ['a ZIP of someone else’s', (path: string) => pythonZip(path, [['notes.txt', 'mine']])],
    [
      'a ZIP whose manifest.json comes second',
      (path: string) =>
        pythonZip(path, [
          ['a.txt', 'x'],
          ['manifest.json', manifestText('Scriptorium')],
        ]),
    ],
    [
      'a ZIP whose manifest names another tool',
      (path: string) => pythonZip(path, [['manifest.json', manifestText('Scriptorium Pro')]]),
    ],
    [
      'a corpus whose first entry is cut short',
      (path: string) => {
        pythonZip(path, [['manifest.json', manifestText('Scriptorium')]]);
        // The local header, the name and a few bytes of data: not enough to show the tool's name.
        execFileSync('truncate', ['-s', '48', path]);
      },
    ],
  ])('an existing file that Scriptorium did not write: %s', (_name, make) => {
    const path = join(dir, 'existing.zip');
    make(path);
    expect(refusal(path).message).toBe(
      `Cannot write ${path}: it is an existing file that Scriptorium did not write, and exporting would replace it. ` +
        'Move or rename that file, or choose another name for the ZIP.',
    );
  });

  it('a path under a file, with the export’s own explanation', () => {
    writeFileSync(join(dir, 'file'), 'x');
    const error = refusal(join(dir, 'file', 'corpus.zip'));
    expect(error.code).toBe('output_refused');
    expect(error.message).toMatch(/part of the path is a file, not a folder/);
  });
});
