import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** bench/baseline.json: the CPU figures the regression checks compare with, and their margin. */
export const baseline = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../bench/baseline.json', import.meta.url)), 'utf8'),
) as {
  cpuMillisecondsPerVideo: number;
  exportCpuMillisecondsPerVideo: number;
  /** How far above its baseline the export check lets CPU per video go. */
  margin: number;
  /** The same for the engine check, wider: its CPU time grows on a busy machine (bench/baseline.json). */
  engineMargin: number;
};
