import { z } from 'zod';
// The SPDX License List, bundled into every face at build time: the same check everywhere, offline.
import spdxLicenseIds from 'spdx-license-ids/index.json';

/**
 * Who made a corpus and under what terms (`export --author/--orcid/--title/--description/--license`,
 * the desktop Export dialog): checked by every face before anything is sent, so that a bad ORCID iD
 * or license id is refused up front rather than after the transcripts are bought.
 */

/** A person who collected the corpus, as CITATION.cff names one. */
export interface CorpusAuthor {
  givenNames?: string;
  familyNames: string;
  /** https://orcid.org/0000-0000-0000-0000 */
  orcid?: string;
}

const ORCID = /^(?:https?:\/\/orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$/i;

/** The ISO 7064 MOD 11-2 check character of an ORCID iD's first fifteen digits. */
function orcidCheckCharacter(digits: string): string {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/** An ORCID iD as https://orcid.org/…, or why the text is not one (its form, or its check digit). */
export function parseOrcid(text: string): { ok: true; orcid: string } | { ok: false; reason: string } {
  const id = ORCID.exec(text.trim())?.[1]?.toUpperCase();
  if (id === undefined)
    return {
      ok: false,
      reason: `"${text}" is not an ORCID iD: expected 0000-0002-1825-0097 or its https://orcid.org/ address`,
    };
  const digits = id.replaceAll('-', '');
  if (orcidCheckCharacter(digits.slice(0, 15)) !== digits[15])
    return {
      ok: false,
      reason: `"${text}" is not an ORCID iD: its last character does not check (a typing mistake?)`,
    };
  return { ok: true, orcid: `https://orcid.org/${id}` };
}

const LICENSES: ReadonlyMap<string, string> = new Map(
  (spdxLicenseIds as string[]).map((id) => [id.toLowerCase(), id]),
);

/** The SPDX license id as the list spells it, or why the text is not one. */
export function parseLicense(text: string): { ok: true; license: string } | { ok: false; reason: string } {
  const license = LICENSES.get(text.trim().toLowerCase());
  return license === undefined
    ? {
        ok: false,
        reason: `"${text}" is not an SPDX license id: use one of the SPDX License List, such as CC-BY-4.0, CC0-1.0 or ODC-By-1.0`,
      }
    : { ok: true, license };
}

/** A license's page of the SPDX License List, which names every id parseLicense takes. */
export function spdxPage(license: string): string {
  return `https://spdx.org/licenses/${license}.html`;
}

/** A trailing ORCID iD on an author's line: digits and dashes, or its orcid.org address. */
const TRAILING_ORCID = /\s+((?:https?:\/\/orcid\.org\/)?\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/;

/**
 * An author as typed: "Given Family" (the last word is the family name) or "Family, Given", then, if
 * any, an ORCID iD. Control characters are not allowed, and a name is one line.
 */
export function parseAuthor(
  text: string,
): { ok: true; author: CorpusAuthor } | { ok: false; reason: string } {
  let name = text.trim();
  if (/\p{Cc}/u.test(name)) return { ok: false, reason: 'an author is one line, without control characters' };
  let orcid: string | undefined;
  const trailing = TRAILING_ORCID.exec(name);
  if (trailing !== null) {
    const parsed = parseOrcid(trailing[1] ?? '');
    if (!parsed.ok) return parsed;
    orcid = parsed.orcid;
    name = name.slice(0, trailing.index).trim();
  }
  if (name === '')
    return { ok: false, reason: `"${text}" has no name: write "Given Family" or "Family, Given"` };
  if (name.length > 200) return { ok: false, reason: 'an author has at most 200 characters' };
  const comma = name.indexOf(',');
  const [family, given] =
    comma >= 0
      ? [name.slice(0, comma).trim(), name.slice(comma + 1).trim()]
      : [name.slice(name.lastIndexOf(' ') + 1), name.slice(0, Math.max(0, name.lastIndexOf(' '))).trim()];
  if (family === '') return { ok: false, reason: `"${text}" has no family name: write "Family, Given"` };
  return {
    ok: true,
    author: {
      familyNames: family,
      ...(given !== '' && { givenNames: given }),
      ...(orcid !== undefined && { orcid }),
    },
  };
}

/** An author's line as the Authors field shows it again: "Given Family ORCID". */
export function authorLine(author: CorpusAuthor): string {
  const name =
    author.givenNames === undefined ? author.familyNames : `${author.givenNames} ${author.familyNames}`;
  return author.orcid === undefined ? name : `${name} ${author.orcid.replace('https://orcid.org/', '')}`;
}

const OneLine = z
  .string()
  .trim()
  .refine((text) => !/\p{Cc}/u.test(text), 'one line, without control characters');

/** An author's line as typed ("Given Family 0000-0002-1825-0097"), checked; toCitation parses it. */
export const AuthorLineSchema = z
  .string()
  .trim()
  .max(300)
  .superRefine((text, ctx) => {
    const parsed = parseAuthor(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  });

/** An SPDX license id as typed (any case), checked; toCitation spells it as the list does. */
export const LicenseSchema = z
  .string()
  .trim()
  .max(100)
  .superRefine((text, ctx) => {
    const parsed = parseLicense(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  });

/**
 * What a face gives for a corpus, as the contract carries it: each part optional, and given alone it
 * keeps every other part the job has (mergeCitation); `null` clears a part, `authors: []` the authors.
 * Authors as typed, one a line. Every part is checked here; toCitation turns it into the parts a
 * corpus names.
 */
export const CitationSchema = z.object({
  title: OneLine.pipe(z.string().min(1).max(300)).nullable().optional(),
  description: z.string().trim().min(1).max(10_000).nullable().optional(),
  authors: z.array(AuthorLineSchema).max(100).optional(),
  license: LicenseSchema.nullable().optional(),
});
export type CitationInput = z.infer<typeof CitationSchema>;

/** A corpus's citation with its parts parsed: what the export writes and the job keeps. */
export interface Citation {
  title?: string;
  description?: string;
  authors: CorpusAuthor[];
  license?: string;
}

/** The parts of a citation CitationSchema checked, as given (a part that does not parse is left out). */
export function toCitation(input: CitationInput): Citation {
  return mergeCitation(undefined, input);
}

/**
 * The citation a corpus carries once `given` is applied to what it carried (`kept`; undefined: none):
 * each part given replaces its own, null (or no authors) clears it, and every part not given is kept.
 */
export function mergeCitation(kept: Citation | undefined, given: CitationInput): Citation {
  const authors =
    given.authors === undefined
      ? (kept?.authors ?? [])
      : given.authors.flatMap((line) => {
          const parsed = parseAuthor(line);
          return parsed.ok ? [parsed.author] : [];
        });
  const license = given.license === undefined ? kept?.license : licenseOrNone(given.license);
  const title = given.title === undefined ? kept?.title : (given.title ?? undefined);
  const description = given.description === undefined ? kept?.description : (given.description ?? undefined);
  return {
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    authors,
    ...(license !== undefined && { license }),
  };
}

function licenseOrNone(text: string | null): string | undefined {
  if (text === null) return undefined;
  const parsed = parseLicense(text);
  return parsed.ok ? parsed.license : undefined;
}

/** A part of a citation as a person reads it in a line of changes; `absent` when the corpus has none. */
const CITATION_PARTS: ReadonlyArray<{
  name: string;
  absent: string;
  shown(citation: Citation | undefined): string | undefined;
}> = [
  { name: 'Title', absent: 'made from its sources', shown: (citation) => quoted(citation?.title) },
  { name: 'Description', absent: 'none', shown: (citation) => quoted(citation?.description) },
  {
    name: 'Authors',
    absent: 'none',
    shown: (citation) =>
      citation === undefined || citation.authors.length === 0
        ? undefined
        : citation.authors.map(authorLine).join('; '),
  },
  { name: 'License', absent: 'none', shown: (citation) => citation?.license },
];

/** Characters of a title or description a line of changes shows. */
const SHOWN_CHARS = 60;

function quoted(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line}"`;
}

/**
 * What a corpus will carry that it did not before, one plain line per part that changed:
 * `License: CC0-1.0 (before: CC-BY-4.0)`, `Title: made from its sources (before: "Field notes")`.
 */
export function citationChanges(before: Citation | undefined, after: Citation | undefined): string[] {
  return CITATION_PARTS.flatMap(({ name, absent, shown }) => {
    const was = shown(before);
    const now = shown(after);
    return was === now ? [] : [`${name}: ${now ?? absent} (before: ${was ?? absent})`];
  });
}
