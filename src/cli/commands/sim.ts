import type { Command } from 'commander';
import { DEMO_KEY, startSimulator } from '../../simulator';
import type { RunningSimulator, SimulatorOptions } from '../../simulator';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliExit, ExitCode } from '../exit';
import { invocation } from '../invocation';
import { listenFailure, untilStopped } from '../serving';

interface RawSimOptions {
  port: string;
  key?: string;
  credits: string;
  rate?: string;
  latency: string;
  seed: string;
}

/**
 * The lists the start-up hint suggests (the README's tour): a 50-video playlist and a 25-video channel,
 * which fit in the default 100 credits. The playlist ID has a real one's length (PL and 32 more
 * characters), because the app reads an 11-character ID as a video.
 */
const TRY_SOURCES = ['PLscriptoriumSimulatorTourList_n50', '@demo_channel_n25'];

/**
 * The command the start-up hint suggests, as this very CLI is run (`./bin/scriptorium` from a
 * checkout, `scriptorium` on the PATH), with a data folder of the simulator's own in the system's
 * temporary folder.
 */
function tryCommand(simulator: RunningSimulator): string {
  const dataDir = join(tmpdir(), `scriptorium-sim-${new URL(simulator.url).port}`);
  const quoted = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `"${text}"`);
  return [
    `TRANSCRIPT_API_KEY=${simulator.key}`,
    quoted(invocation()),
    'export',
    ...TRY_SOURCES,
    `--base-url ${simulator.url}`,
    `--data-dir ${quoted(dataDir)}`,
    '--out sim-demo.zip',
  ].join(' ');
}

/** A whole number written in plain digits within [min, max], or a CliExit naming the option. */
function wholeNumber(option: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new CliExit(ExitCode.badInput, `${option} must be a whole number ${range} (got "${raw}").`);
  }
  return value;
}

function simulatorOptions(raw: RawSimOptions): SimulatorOptions {
  if (raw.key !== undefined && raw.key.trim() === '') {
    throw new CliExit(ExitCode.badInput, '--key must not be empty.');
  }
  return {
    port: wholeNumber('--port', raw.port, 0, 65535),
    keys: [raw.key ?? DEMO_KEY],
    credits: wholeNumber('--credits', raw.credits, 0),
    rateLimit:
      raw.rate === undefined ? null : { limit: wholeNumber('--rate', raw.rate, 1), windowMs: 60_000 },
    latencyMs: wholeNumber('--latency', raw.latency, 0),
    seed: wholeNumber('--seed', raw.seed, 0, 0xffff_ffff),
  };
}

async function start(options: SimulatorOptions): Promise<RunningSimulator> {
  try {
    return await startSimulator(options);
  } catch (error) {
    throw listenFailure(error, options.port ?? 0);
  }
}

/** `scriptorium sim`: runs the local Transcript Service simulator until SIGINT or SIGTERM. */
export function registerSimCommand(program: Command): void {
  program
    .command('sim')
    .description('Run a local, seeded Transcript Service simulator for demos and tests.')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '0')
    .option('--key <key>', `API key the simulator accepts (default ${DEMO_KEY})`)
    .option('--credits <n>', 'starting credits (the free grant)', '100')
    .option('--rate <n>', 'requests per minute per key (default: unlimited)')
    .option('--latency <ms>', 'added delay per request, in ms', '0')
    .option('--seed <n>', 'seed for all generated data', '1')
    .action(async (raw: RawSimOptions) => {
      const options = simulatorOptions(raw);
      const simulator = await start(options);
      process.stdout.write(
        [
          `Simulator listening on ${simulator.url}`,
          `API key: ${simulator.key}`,
          `Try: ${tryCommand(simulator)}`,
          '     (any playlist ID or @handle ending in _n<N> has N videos; video IDs starting with nocap have no captions;',
          "     a data folder of its own keeps the simulator's jobs out of yours)",
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
      await untilStopped();
      await simulator.close();
    });
}
