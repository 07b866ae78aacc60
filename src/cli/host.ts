/**
 * What the program running the CLI tells it about itself: bin/scriptorium under Node says nothing,
 * the packaged desktop app (src/main/launch.ts) names the better-sqlite3 it carries and the command
 * that runs it. One CLI runs per process, so this is set once, by runCli, before any command.
 */
export interface CliHost {
  /** The better-sqlite3 addon to load; by default better-sqlite3's own build, which is Node's. */
  nativeBinding?: string;
  /** How the user runs this CLI again, for the commands it prints; by default worked out from argv. */
  command?: string;
}

let host: CliHost = {};

export function setCliHost(next: CliHost): void {
  host = next;
}

export function cliHost(): CliHost {
  return host;
}
