import { runCli } from './run';

// Entry point of bin/scriptorium: one process, commander parses and dispatches.
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
