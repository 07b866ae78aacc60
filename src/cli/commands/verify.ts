import type { Command } from 'commander';
import { CorpusUnreadableError, printable, verifyCorpus } from '../../core/app';
import { CliExit, ExitCode } from '../exit';

/** docs/product.md: exit 1 also means that `verify` found the corpus not sound. */
const NOT_SOUND = ExitCode.internal;

/**
 * `scriptorium verify FILE.zip`: a line per difference on stdout, then one plain last line; exit 0
 * when the corpus is sound, 1 when it is not, 2 when the file cannot be read at all, or holds files
 * in a compression verify does not read and no difference elsewhere.
 */
export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description(
      "Check a corpus ZIP: every file against its SHA256SUMS, and the manifest's counts against index.csv.",
    )
    .argument('<file>', 'the corpus ZIP to check, or the folder it was unzipped into')
    .action(async (file: string) => {
      const report = await verifyCorpus(file).catch((error: unknown) => {
        if (error instanceof CorpusUnreadableError) throw new CliExit(ExitCode.badInput, error.message);
        throw error;
      });
      for (const difference of report.differences) process.stdout.write(`${difference}\n`);
      const count = report.found;
      const shown = printable(file);
      const { unchecked } = report;
      if (count === 0 && unchecked.files > 0) {
        // Neither sound nor damaged: exit 2, as for a file verify cannot read at all.
        throw new CliExit(ExitCode.badInput, cannotCheck(shown, unchecked));
      }
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

/** What to say of a ZIP some of whose files are compressed in a way verify does not read. */
function cannotCheck(shown: string, unchecked: { files: number; methods: ReadonlySet<string> }): string {
  const files = unchecked.files === 1 ? '1 file' : `${unchecked.files.toLocaleString('en-US')} files`;
  return (
    `Cannot verify ${shown} whole: ${files} in it ${unchecked.files === 1 ? 'is' : 'are'} compressed with ` +
    `${[...unchecked.methods].join(', ')}, which verify cannot read, so nothing can be said of ` +
    `${unchecked.files === 1 ? 'it' : 'them'}; the rest shows no difference. Unzip it with a tool that ` +
    'reads that compression (unzip, 7-Zip) and verify the folder: scriptorium verify FOLDER.'
  );
}
