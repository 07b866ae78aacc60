import type { Command } from 'commander';
import { CitationSchema, type CitationInput } from '../shared/citation';
import { ArgumentError } from './argument-error';

/** The raw values of export's citation options. */
export interface RawCitationOptions {
  author?: string[];
  orcid?: string[];
  title?: string;
  description?: string;
  license?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Who made the corpus and under what terms: written into CITATION.cff, datapackage.json and README.md. */
export function addCitationOptions(command: Command): Command {
  return command
    .option(
      '--author <name>',
      'an author of the corpus, "Given Family" or "Family, Given" (repeatable)',
      collect,
    )
    .option(
      '--orcid <id>',
      "an author's ORCID iD, in the order of --author (repeatable; '' for an author without one)",
      collect,
    )
    .option('--title <text>', "the corpus's title (default: made from its sources)")
    .option('--description <text>', "what the corpus is for, in your words (the datasheet's motivation)")
    .option(
      '--license <spdx-id>',
      'the license of what you made (the tables, the datasheet), e.g. CC-BY-4.0',
    );
}

/**
 * The citation given, checked as the contract will check it, so that a bad ORCID iD or license is
 * refused before anything is sent; undefined when none of the options was given.
 */
export function parseCitation(raw: RawCitationOptions): CitationInput | undefined {
  const authors = raw.author ?? [];
  const orcids = raw.orcid ?? [];
  if (
    authors.length === 0 &&
    orcids.length === 0 &&
    raw.title === undefined &&
    raw.description === undefined &&
    raw.license === undefined
  )
    return undefined;
  if (orcids.length > authors.length) {
    throw new ArgumentError(
      `${orcids.length} --orcid for ${authors.length} --author: give each ORCID iD after its author's --author.`,
    );
  }
  const citation: CitationInput = {
    authors: authors.map((author, index) => {
      const orcid = orcids[index]?.trim() ?? '';
      return orcid === '' ? author : `${author} ${orcid}`;
    }),
    ...(raw.title !== undefined && { title: raw.title }),
    ...(raw.description !== undefined && { description: raw.description }),
    ...(raw.license !== undefined && { license: raw.license }),
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
