import type { Command } from 'commander';
import { CitationSchema, type CitationInput } from '../shared/citation';
import { ArgumentError } from './argument-error';

/** The raw values of export's citation options; false: cleared with its --no- form. */
export interface RawCitationOptions {
  author?: string[] | false;
  orcid?: string[];
  title?: string | false;
  description?: string | false;
  license?: string | false;
}

/** A repeated option's values in order; a --no-author before them is forgotten, as the last one said. */
const collect = (value: string, previous: unknown): string[] =>
  Array.isArray(previous) ? [...(previous as string[]), value] : [value];

/**
 * Who made the corpus and under what terms: written into CITATION.cff, datapackage.json and README.md.
 * Each is kept with the job until given again, alone: giving one keeps the others; its --no- form
 * clears it.
 */
export function addCitationOptions(command: Command): Command {
  return command
    .option(
      '--author <name>',
      'an author of the corpus, "Given Family" or "Family, Given" (repeatable; replaces the authors kept)',
      collect,
    )
    .option('--no-author', 'clear the authors kept with the job (and their ORCID iDs)')
    .option(
      '--orcid <id>',
      "an author's ORCID iD, in the order of --author (repeatable; '' for an author without one)",
      collect,
    )
    .option('--title <text>', "the corpus's title (default: made from its sources)")
    .option('--no-title', 'clear the title kept with the job: made from its sources again')
    .option('--description <text>', "what the corpus is for, in your words (the datasheet's motivation)")
    .option('--no-description', 'clear the description kept with the job')
    .option('--license <spdx-id>', 'the license of what you made (the tables, the datasheet), e.g. CC-BY-4.0')
    .option('--no-license', 'clear the license kept with the job');
}

/** The --no- form that clears each part of the citation, for messages. */
const CLEARED_BY = { title: '--no-title', description: '--no-description', license: '--no-license' } as const;

/**
 * The citation given, checked as the contract will check it, so that a bad ORCID iD or license is
 * refused before anything is sent; undefined when none of the options was given. A part not given is
 * left out (the job keeps its own); one cleared with its --no- form is null (no authors: []).
 */
export function parseCitation(raw: RawCitationOptions): CitationInput | undefined {
  const authors = raw.author === false ? [] : raw.author;
  const orcids = raw.orcid ?? [];
  if (
    authors === undefined &&
    orcids.length === 0 &&
    raw.title === undefined &&
    raw.description === undefined &&
    raw.license === undefined
  )
    return undefined;
  if (orcids.length > (authors?.length ?? 0)) {
    throw new ArgumentError(
      `${orcids.length} --orcid for ${authors?.length ?? 0} --author: give each ORCID iD after its author's --author.`,
    );
  }
  for (const part of ['title', 'description', 'license'] as const) {
    if (typeof raw[part] === 'string' && raw[part].trim() === '')
      throw new ArgumentError(
        `--${part} is empty: to clear the ${part} kept with the job, give ${CLEARED_BY[part]}.`,
      );
  }
  const citation: CitationInput = {
    ...(authors !== undefined && {
      authors: authors.map((author, index) => {
        const orcid = orcids[index]?.trim() ?? '';
        return orcid === '' ? author : `${author} ${orcid}`;
      }),
    }),
    ...(raw.title !== undefined && { title: raw.title === false ? null : raw.title }),
    ...(raw.description !== undefined && { description: raw.description === false ? null : raw.description }),
    ...(raw.license !== undefined && { license: raw.license === false ? null : raw.license }),
  };
  const parsed = CitationSchema.safeParse(citation);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option =
      issue?.path[0] === 'authors' ? '--author/--orcid' : `--${String(issue?.path[0] ?? 'citation')}`;
    // zod's own words for a length are not for users: say the limit.
    const why =
      issue?.code === 'too_big'
        ? `at most ${Number(issue.maximum).toLocaleString('en')} ${issue.origin === 'array' ? 'authors' : 'characters'} are taken`
        : (issue?.message ?? 'not valid');
    throw new ArgumentError(`${option}: ${why}.`);
  }
  return citation;
}
