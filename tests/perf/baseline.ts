import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** bench/baseline.json: the CPU figures the regression checks compare with, and their margin. */
export const baseline = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../bench/baseline.json', import.meta.url)), 'utf8'),
) as { cpuMillisecondsPerVideo: number; exportCpuMillisecondsPerVideo: number; margin: number };
