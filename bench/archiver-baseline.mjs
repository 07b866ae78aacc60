#!/usr/bin/env node
// Why src/core/export writes its own ZIP records instead of using archiver: archiver (the
// library first chosen) spends about a third of a millisecond per entry and builds the whole
// central directory in memory when it finishes, so a 20,000-transcript corpus (80,000 entries)
// takes tens of seconds and hundreds of MiB. This appends the same number of small entries
// the way an export does, one at a time with back-pressure, and reports time and peak RSS.
// Run: node bench/archiver-baseline.mjs [entries]   (default 80000)
import archiver from 'archiver';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const entries = Number(process.argv[2] ?? 80_000);
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-archiver-'));
const zip = archiver('zip', { zlib: { level: 6 } });
const out = createWriteStream(join(dir, 'baseline.zip'));
zip.pipe(out);
const body = 'We are no strangers to love, you know the rules and so do I.\n'.repeat(40);
const started = performance.now();
for (let index = 0; index < entries; index += 1) {
  const entered = once(zip, 'entry');
  zip.append(Buffer.from(body), {
    name: `txt/Video number ${index} [abcdefghijk].txt`,
    date: new Date(315532800000),
  });
  await entered;
}
await zip.finalize();
await once(out, 'close');
const seconds = (performance.now() - started) / 1000;
console.log(
  `archiver, ${entries} entries of ${body.length} bytes: ${seconds.toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
rmSync(dir, { recursive: true, force: true });
