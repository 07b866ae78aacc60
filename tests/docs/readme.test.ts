/**
 * The README's simulator tour is what a newcomer types first: its sources must export what the README
 * says they hold. Checked with the app's own classifier and the simulator's ground truth.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { sourceAsExported } from '../simulator/source-as-exported';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const PACKAGE = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
) as { allowScripts: Record<string, boolean> };

/** The sources given to `scriptorium export` in the README code block that starts `scriptorium sim`. */
function simulatorTourSources(): string[] {
  const blocks = [...README.matchAll(/^\s*```sh\n([\s\S]*?)^\s*```/gm)].map((match) => match[1] ?? '');
  const tour = blocks.find((block) => /scriptorium sim\b/.test(block));
  if (tour === undefined) throw new Error('README.md has no code block that runs `scriptorium sim`');
  const command = tour
    .replace(/\\\n/g, ' ')
    .split('\n')
    .find((line) => /scriptorium export\b/.test(line));
  if (command === undefined) throw new Error('the simulator tour runs no `scriptorium export`');
  const words = command.trim().split(/\s+/);
  const options = words.findIndex((word) => word.startsWith('--'));
  return words.slice(words.indexOf('export') + 1, options < 0 ? undefined : options);
}

interface DocumentedList {
  /** A source, or a pattern where … stands for any characters (`PL…_n120`). */
  source: string;
  kind: string;
  videos: number;
}

/** Sentences such as "the playlist `PL…_n120` has 120 videos" and "a channel `@name_n40` has 40". */
function documentedLists(): DocumentedList[] {
  const prose = README.replace(/\s+/g, ' ');
  return [...prose.matchAll(/\b(playlist|channel) `([^`]+)` has (\d+)/g)].map(([, kind, source, videos]) => ({
    source: source ?? '',
    kind: kind ?? '',
    videos: Number(videos),
  }));
}

function describes(list: DocumentedList, source: string): boolean {
  const pattern = list.source.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('.*')}$`).test(source);
}

describe('README simulator tour', () => {
  test('each source of the tour command is the list the README says, holding that many videos', () => {
    const sources = simulatorTourSources();
    expect(sources.length).toBeGreaterThan(0);
    const documented = documentedLists();
    for (const source of sources) {
      const list = documented.find((candidate) => describes(candidate, source));
      if (list === undefined) throw new Error(`README.md does not say what ${source} holds`);
      expect({ source, ...sourceAsExported(source) }).toEqual({
        source,
        kind: list.kind,
        videos: list.videos,
      });
    }
  });

  test('each list the README names outright holds what it says', () => {
    const named = documentedLists().filter((list) => !list.source.includes('…'));
    expect(named.length).toBeGreaterThan(0);
    expect(named.map(({ source }) => ({ source, ...sourceAsExported(source) }))).toEqual(named);
  });
});

describe("README's commands leave the reader's own data alone", () => {
  test('every simulator tour keeps its jobs in a throwaway data folder, never the real one', () => {
    const blocks = [...README.matchAll(/^\s*```sh\n([\s\S]*?)^\s*```/gm)].map((match) => match[1] ?? '');
    const tours = blocks.filter(
      (block) => /scriptorium sim\b/.test(block) && /scriptorium export\b/.test(block),
    );
    expect(tours.length).toBeGreaterThan(0);
    for (const tour of tours) {
      // A folder of mktemp's, given as --data-dir or SCRIPTORIUM_DATA_DIR, before the first export.
      const folder = /^\s*(?:export\s+)?(\w+)=\$\(mktemp -d\)/m.exec(tour)?.[1];
      expect(folder, `a tour without a temporary folder:\n${tour}`).toBeDefined();
      expect(tour).toMatch(new RegExp(`(--data-dir |SCRIPTORIUM_DATA_DIR=)"\\$${folder}/`));
    }
  });

  test('every simulator a tour starts in the background, the tour stops', () => {
    const blocks = [...README.matchAll(/^\s*```sh\n([\s\S]*?)^\s*```/gm)].map((match) => match[1] ?? '');
    const started = blocks.filter((block) => /scriptorium sim\b[^\n]*&\s*$/m.test(block));
    expect(started.length).toBeGreaterThan(0);
    for (const block of started)
      expect(block, `a tour that leaves its simulator running:\n${block}`).toMatch(/^\s*kill \$!/m);
  });

  test('it says what npm install costs, and names each install script package.json allows or declines', () => {
    const text = README.replace(/\s+/g, ' ');
    expect(text).toMatch(/`npm install` costs about \d+ minutes of processor time/);
    expect(text).toMatch(
      /on a 2-core machine busy with other work \(a load average of \d+\) it took \d+ minutes/,
    );
    // npm 11 lists the install scripts allowScripts has not reviewed: the README says why each is decided.
    for (const name of Object.keys(PACKAGE.allowScripts)) expect(text).toContain(name);
    expect(text).toContain('allowScripts');
  });

  test('it says how long npm test takes on a 2-core machine', () => {
    expect(README.replace(/\s+/g, ' ')).toMatch(/`npm test` takes about \d+ minutes on a 2-core machine/);
  });
});
