import type { CommanderError } from 'commander';
import { Command } from 'commander';
import { APP_VERSION } from '../shared/version';
import { registerCreditsCommand } from './commands/credits';
import { registerDemoCommand } from './commands/demo';
import { registerExportCommand } from './commands/export';
import { registerJobsCommand } from './commands/jobs';
import { registerKeepCommand } from './commands/keep';
import { registerPreviewCommand } from './commands/preview';
import { registerSearchCommand } from './commands/search';
import { registerSimCommand } from './commands/sim';
import { registerSyncCommand } from './commands/sync';
import { registerTrendsCommand } from './commands/trends';
import { registerUiCommand } from './commands/ui';
import { registerVerifyCommand } from './commands/verify';
import { registerWordsCommand } from './commands/words';
import { CliExit, ExitCode } from './exit';
import { invocation } from './invocation';

/** Builds the commander program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('scriptorium')
    .description('Export transcripts in bulk from the Video Transcript Service.')
    .version(APP_VERSION)
    // The program's own options (--version, --help) only before a command: `export --version N` is export's.
    .enablePositionalOptions()
    .showHelpAfterError('(run the command with --help to see its options)')
    .exitOverride(toContractExit);
  registerExportCommand(program);
  registerPreviewCommand(program);
  registerSyncCommand(program);
  registerKeepCommand(program);
  registerDemoCommand(program);
  registerJobsCommand(program);
  registerCreditsCommand(program);
  registerSimCommand(program);
  registerUiCommand(program);
  registerVerifyCommand(program);
  registerSearchCommand(program);
  registerTrendsCommand(program);
  registerWordsCommand(program);
  for (const command of program.commands)
    command.exitOverride((error) => toContractExit(error, command.name()));
  return program;
}

/** Commander's own exits: help and version are fine; any usage error is exit 2, per the contract. */
function toContractExit(error: CommanderError, command?: string): never {
  if (error.exitCode === 0) throw new CliExit(ExitCode.exported, '');
  const notUnderstood = 'The command line was not understood; nothing was sent.';
  throw new CliExit(ExitCode.badInput, `${notUnderstood}${command === 'search' ? searchHint(error) : ''}`);
}

/**
 * `search -river` reads -river as an option: a query that leaves a word out starts with - too, and
 * `--` before it says where the options end.
 */
function searchHint(error: CommanderError): string {
  const option = /unknown option '(-[^-'][^']*)'/.exec(error.message)?.[1];
  if (error.code !== 'commander.unknownOption' || option === undefined) return '';
  return ` To search for transcripts without "${option.slice(1)}", put -- before the query: ${invocation()} search -- ${option}`;
}
