import type { Command } from 'commander';
import { CorpusUnreadableError, printable, verifyCorpus } from '../../core/app';
import { CliExit, ExitCode } from '../exit';

/** docs/product.md: exit 1 also means that `verify` found the corpus not sound. */
const NOT_SOUND = ExitCode.internal;

/**
 * `scriptorium verify FILE.zip`: a line per difference on stdout, then one plain last line; exit 0
 * when the corpus is sound, 1 when it is not, 2 when the file cannot be read at all.
 */
export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description(
      "Check a corpus ZIP: every file against its SHA256SUMS, and the manifest's counts against index.csv.",
    )
    .argument('<file>', 'the corpus ZIP to check')
    .action(async (file: string) => {
      const report = await verifyCorpus(file).catch((error: unknown) => {
        if (error instanceof CorpusUnreadableError) throw new CliExit(ExitCode.badInput, error.message);
        throw error;
      });
      for (const difference of report.differences) process.stdout.write(`${difference}\n`);
      const count = report.found;
      const shown = printable(file);
      if (count === 0) {
        process.stdout.write(
          `${shown} is sound: its ${report.matching} files match SHA256SUMS, and index.csv agrees with manifest.json.\n`,
        );
        return;
      }
      throw new CliExit(
        NOT_SOUND,
        `${shown} is not sound: ${count.toLocaleString('en-US')} difference${count === 1 ? '' : 's'} found ` +
          '(listed above). Export the corpus again from its job, or get an intact copy.',
      );
    });
}
