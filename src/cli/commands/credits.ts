import type { Command } from 'commander';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';

/**
 * The service has no balance endpoint, so Scriptorium keeps its own ledger; a balance the user
 * enters (from the service's dashboard) turns it into an estimate of what is left.
 */
export function registerCreditsCommand(program: Command): void {
  program
    .command('credits')
    .description('Show the credits spent (today, in total, by job) and an estimate of what is left.')
    .option('--balance <n>', 'record your current balance (a whole number, or "none" to forget it)')
    .option('--json', "print the credit status as JSON (the contract's credit view)", false)
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (flags: { balance?: string; json: boolean; dataDir?: string }) => {
      const balance = flags.balance === undefined ? undefined : parseBalance(flags.balance);
      await withApp(flags, async (api) => {
        const status =
          balance === undefined ? await api.creditStatus({}) : await api.setBalance({ credits: balance });
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
          return;
        }
        const lines = [`Credits spent: ${status.today} today, ${status.total} in total.`];
        for (const { jobId, credits } of status.byJob) lines.push(`  job ${jobId}: ${credits}`);
        if (status.possible > 0) {
          lines.push(`  ${status.possible} of them possibly charged: requests sent and never answered.`);
        }
        if (status.balance !== null) {
          lines.push(
            `Balance entered: ${status.balance}; estimated remaining: ${status.estimatedRemaining ?? 0}.`,
          );
        }
        if (status.last402) {
          lines.push(
            `Last refusal for credits: ${status.last402.meaning} (${status.last402.code}) at ${status.last402.at}.`,
          );
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });
}

function parseBalance(value: string): number | null {
  if (value.trim().toLowerCase() === 'none') return null;
  if (/^\d+$/.test(value.trim()) && Number.isSafeInteger(Number(value))) return Number(value);
  throw new CliExit(ExitCode.badInput, `--balance ${value}: expected a whole number of credits, or "none".`);
}
