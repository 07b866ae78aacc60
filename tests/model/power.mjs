#!/usr/bin/env node
// `npm run test:model:power [-- --only IDS] [--runs N] [--seed S] [--skip-npm-test] [--keep]`: the
// proof of the model's power (tests/model/README.md). Each seeded seam bug of tests/model/mutants/
// (data: a file, the exact text to find, which must occur once, its replacement and the story of the
// mistake) is applied to a scratch copy of the project (node_modules linked), the CLI is built there,
// and the model runs on it: the random sequences of one seed, up to --runs, stopping at the first
// failure, then the model part of `npm test` (tests/model/corpora.test.ts as npm test runs it). A
// mutant whose text is no longer found "does not apply": an error, never caught nor missed. Prints
// the table (and writes it to out/model-power.md, each catching sequence to out/model-power/).
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: '' },
    runs: { type: 'string', default: '300' },
    seed: { type: 'string', default: '42' },
    'skip-npm-test': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('../..', import.meta.url));
const mutantsFolder = join(root, 'tests/model/mutants');
/** Folders and files a scratch copy leaves out: the dependencies (linked instead), builds, history. */
const LEFT_OUT = new Set(['node_modules', 'out', '.git', 'bench', 'dist', 'release']);

/** Every mutant of every file of tests/model/mutants/, in file order. */
function loadMutants() {
  return readdirSync(mutantsFolder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => JSON.parse(readFileSync(join(mutantsFolder, name), 'utf8')));
}

/** Runs a command in `cwd`; resolves with its exit code and output (stdout and stderr together). */
function run(command, args, cwd, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** A scratch copy of the project with the mutant applied; undefined when its text does not occur once. */
function scratchCopy(mutant) {
  const folder = mkdtempSync(join(tmpdir(), `scriptorium-power-${mutant.id}-`));
  cpSync(root, folder, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(relative(root, source).split('/')[0] ?? ''),
  });
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
  const file = join(folder, mutant.file);
  const text = readFileSync(file, 'utf8');
  const found = text.split(mutant.find).length - 1;
  if (found !== 1) return { folder, problem: `its text occurs ${found} times in ${mutant.file}` };
  writeFileSync(
    file,
    text.replace(mutant.find, () => mutant.replace),
  );
  return { folder };
}

const vitest = (folder) => join(folder, 'node_modules/.bin/vitest');
const FAILED = /seed (\d+), path "[^"]*", after (\d+) sequence\(s\):[\s\S]*?rule "([^"]+)"/;

/** The random sequences of one seed, stopping at the first failure. */
async function randomSequences(folder, mutant) {
  const { code, output } = await run(
    vitest(folder),
    ['run', '--project', 'suite', 'tests/model/corpora.test.ts', '-t', 'random sequences'],
    folder,
    { MODEL_RUNS: values.runs, MODEL_SEEDS: values.seed, MODEL_NO_SHRINK: '1', MODEL_TIMEOUT_MS: '0' },
  );
  if (code === 0) return { caught: false, text: `missed in ${values.runs}` };
  const failure = FAILED.exec(stripVTControlCharacters(output));
  if (failure === null) return { caught: true, text: 'failed (no rule named: see the output)', output };
  const recorded = join(folder, `out/model-failures/seed-${failure[1]}.json`);
  mkdirSync(join(root, 'out/model-power'), { recursive: true });
  try {
    cpSync(recorded, join(root, `out/model-power/${mutant.id}.json`));
  } catch {
    // Recorded only when the failure was the model's own.
  }
  return { caught: true, text: `sequence ${failure[2]}: "${failure[3]}"` };
}

/** The model part of npm test as npm test runs it: fixed seeds and the recorded regressions. */
async function npmTestPart(folder) {
  if (values['skip-npm-test']) return 'not run';
  const { code, output } = await run(
    vitest(folder),
    ['run', '--project', 'suite', 'tests/model/corpora.test.ts'],
    folder,
  );
  if (code === 0) return 'missed';
  const failed = [
    ...stripVTControlCharacters(output).matchAll(/FAIL .*corpora\.test\.ts > [^>]+> (.+)/g),
  ].map((m) => m[1].trim());
  return `caught by ${failed[0] ?? 'a test'}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`;
}

const only = values.only.split(',').filter((id) => id !== '');
const mutants = loadMutants().filter((mutant) => only.length === 0 || only.includes(mutant.id));
const rows = [];
let broken = 0;
for (const mutant of mutants) {
  const started = Date.now();
  const { folder, problem } = scratchCopy(mutant);
  let row;
  if (problem !== undefined) {
    broken += 1;
    row = { mutant, random: `does not apply: ${problem}`, npm: '-' };
  } else {
    const built = await run(
      join(folder, 'node_modules/.bin/vite'),
      ['build', '--config', 'vite.cli.config.ts'],
      folder,
    );
    if (built.code !== 0) {
      broken += 1;
      row = { mutant, random: `does not build:\n${built.output.slice(-2000)}`, npm: '-' };
    } else {
      const random = await randomSequences(folder, mutant);
      row = { mutant, random: random.text, npm: await npmTestPart(folder) };
    }
  }
  if (!values.keep) rmSync(folder, { recursive: true, force: true });
  rows.push(row);
  process.stdout.write(
    `${mutant.id}: ${row.random}; npm test: ${row.npm} (${Math.round((Date.now() - started) / 1000)} s)\n`,
  );
}

const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  `Seed ${values.seed}, up to ${values.runs} sequences; npm test: tests/model/corpora.test.ts as \`npm test\` runs it.`,
  '',
  '| mutant | module | the story | random sequences | npm test |',
  '| --- | --- | --- | --- | --- |',
  ...rows.map(
    ({ mutant, random, npm }) =>
      `| ${mutant.id} | ${mutant.file.replace(/^src\/core\//, '')} | ${cell(mutant.story)} | ${cell(random)} | ${cell(npm)} |`,
  ),
];
const caught = rows.filter(
  (row) => row.random.startsWith('sequence') || row.random.startsWith('failed'),
).length;
const byNpm = rows.filter((row) => row.npm.startsWith('caught')).length;
table.push(
  '',
  `${caught} of ${rows.length} caught by the random sequences, ${byNpm} by npm test; ${broken} did not apply or build.`,
);
mkdirSync(join(root, 'out'), { recursive: true });
writeFileSync(join(root, 'out/model-power.md'), `${table.join('\n')}\n`);
process.stdout.write(`\n${table.join('\n')}\n`);
process.exit(broken > 0 || caught < rows.length ? 1 : 0);
