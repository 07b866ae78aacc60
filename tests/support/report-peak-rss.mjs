// Preloaded into a child process (node --import): when it exits, writes its peak resident set size in
// KiB (process.resourceUsage().maxRSS) to the file PEAK_RSS_FILE names, so that a test can hold the
// real CLI to a memory bound without sampling it from outside.
import { writeFileSync } from 'node:fs';

const target = process.env['PEAK_RSS_FILE'];
if (target) process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
