import type { Command } from 'commander';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { invocation } from '../invocation';
import { jobNumber } from '../job-number';

/**
 * `scriptorium keep JOB_ID on|off`: marks a job with a playlist or a channel Keep current (or not),
 * so that `scriptorium sync --all` and the desktop app sync it. Nothing is sent.
 */
export function registerKeepCommand(program: Command): void {
  program
    .command('keep')
    .description('Mark a job Keep current (on) or not (off): `sync --all` and the desktop app then sync it.')
    .argument('<job>', 'the job number (see `scriptorium jobs`)')
    .argument('<on|off>', 'on to keep it current, off to stop')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (jobArgument: string, switchArgument: string, flags: { dataDir?: string }) => {
      const jobId = jobNumber(jobArgument);
      const on = onOrOff(switchArgument, jobId);
      const job = await withApp(flags, (api) => api.setKeepCurrent({ jobId, on }));
      process.stdout.write(
        on
          ? `Job ${jobId} (${job.title}) is kept current: \`scriptorium sync --all\` and the desktop app sync it.\n`
          : `Job ${jobId} (${job.title}) is no longer kept current.\n`,
      );
    });
}

function onOrOff(text: string, jobId: number): boolean {
  const word = text.trim().toLowerCase();
  if (word === 'on' || word === 'off') return word === 'on';
  throw new CliExit(
    ExitCode.badInput,
    `"${text}": say on or off (\`${invocation()} keep ${jobId} on\`). Nothing was changed.`,
  );
}
