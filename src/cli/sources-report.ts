import type { ScriptoriumApi, SourceEntry } from '../shared/contract';
import { describeInvalid, describeWarning } from '../shared/sources';
import { CliExit, ExitCode } from './exit';
import { plural } from './plural';

/** Rejected lines are listed up to this many; the rest are counted (the manifest keeps them all). */
const REJECTIONS_SHOWN = 20;

/**
 * Tells the user, before anything is sent, which sources are refused and why, and which are read
 * in a way they may not have meant; exits 2 when none is left to run.
 */
export async function reportSources(
  api: ScriptoriumApi,
  sources: SourceEntry[],
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const { lines } = await api.validateSources({ sources });
  const rejected = lines.filter((line) => line.kind === null);
  if (rejected.length > 0) {
    stderr.write(`Skipping ${plural(rejected.length, 'invalid source')}:\n`);
    for (const line of rejected.slice(0, REJECTIONS_SHOWN)) {
      stderr.write(
        `  ${describeInvalid({ where: line.where, input: line.input, reason: line.reason ?? '' })}\n`,
      );
    }
    if (rejected.length > REJECTIONS_SHOWN)
      stderr.write(
        `  ... and ${rejected.length - REJECTIONS_SHOWN} more (the ZIP's manifest.json lists them all)\n`,
      );
  }
  for (const { where, input, warning } of lines) {
    if (warning !== null) stderr.write(`Warning: ${describeWarning({ where, input, warning })}\n`);
  }
  if (rejected.length === lines.length) {
    throw new CliExit(
      ExitCode.badInput,
      'No valid source remains, so nothing was sent. Fix the sources listed above and run the command again.',
    );
  }
}
