import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryKeyStore } from '../../core/app';
import { DEFAULT_LANGUAGES, defaultFormats } from '../../shared/vocabulary';
import { startSimulator } from '../../simulator';
import { withApp } from '../environment';
import { runExport } from '../run-export';

/**
 * A realistic job on the built-in simulator, with no key needed: a playlist of 60 videos, a channel
 * of 45 and a few single videos, two of which have no captions. The playlist ID has a real one's
 * length (PL and 16 more characters); the `_n<N>` ending sets the simulator's list size.
 */
export const DEMO_SOURCES = [
  'https://www.youtube.com/playlist?list=PLdemoLectures_n60',
  '@scriptorium_demo_n45',
  'https://youtu.be/dQw4w9WgXcQ',
  'https://www.youtube.com/watch?v=jNQXAC9IVRw&t=10s',
  'nocapDemo01',
  'https://www.youtube.com/shorts/nocapDemo02',
];

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run a realistic job on the built-in simulator (no key needed) and write a ZIP.')
    .option('--out <file.zip>', 'where to write the ZIP', 'scriptorium-demo.zip')
    .action(async (flags: { out: string }) => {
      const simulator = await startSimulator({ credits: 10_000, latencyMs: 40, seed: 7 });
      const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-demo-'));
      process.stderr.write(`Demo: simulator on ${simulator.url}, a throwaway database in ${dataDir}\n`);
      try {
        const request = {
          sources: DEMO_SOURCES.map((text, index) => ({ where: `demo ${index + 1}`, text })),
          draft: {
            languages: DEFAULT_LANGUAGES,
            includeTimestamp: true,
            sendMetadata: true,
            maxVideos: null,
            budget: null,
            concurrency: 8,
            formats: defaultFormats(),
          },
        };
        const app = {
          dataDir,
          baseUrl: simulator.url,
          keys: memoryKeyStore({ key: simulator.key, serviceUrl: simulator.url }),
        };
        const summary = await withApp(app, (api) =>
          runExport(api, {
            request,
            outPath: flags.out,
            retryFailed: false,
            retryUnavailable: false,
            stderr: process.stderr,
          }),
        );
        const { counts, creditsSpent } = summary.job;
        process.stdout.write(
          [
            'Demo finished.',
            `  videos:         ${counts.total}`,
            `  transcripts:    ${counts.ok}`,
            `  unavailable:    ${counts.unavailable} (no captions)`,
            `  failed:         ${counts.failed}`,
            `  credits spent:  ${creditsSpent}`,
            `  time:           ${summary.seconds.toFixed(1)} s`,
            `  ZIP:            ${summary.zipPath}`,
            '',
          ].join('\n'),
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
        await simulator.close();
      }
    });
}
