/**
 * Who made the corpus, as it says it (docs/product.md, "Your name on it", ZIP layout): CITATION.cff
 * valid against CFF 1.2.0 (cffjs's schema), with the title, authors and their ORCID iDs, license and
 * description given, the corpus's version and the day it was released; datapackage.json and the
 * dataset card saying the same. A part given once is kept by later exports until given again, one by
 * one (a rule pending on main: giving one part drops the others there).
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { validateCFFFile } from 'cffjs';
import type { CorpusReading } from '../corpus-reader';
import type { ModelJob } from '../job';
import { unless, type Violation } from '../rules';

/** The part of datapackage-js (frictionlessdata's validator, a dev dependency) this rule uses. */
const datapackage = createRequire(import.meta.url)('datapackage') as {
  Package: { load(descriptor: object): Promise<{ valid: boolean; errors: Error[] }> };
};

type Parts = Record<string, string>;

/** "Hopper, Grace" and "Ada Lovelace" as CFF's family and given names. */
function names(author: string): { family: string; given: string } {
  const [family, given] = author.includes(',')
    ? author.split(',').map((part) => part.trim())
    : [author.split(' ').slice(1).join(' '), author.split(' ')[0]];
  return { family: family ?? '', given: given ?? '' };
}

interface Cff {
  title?: string;
  version?: string;
  'date-released'?: string;
  abstract?: string;
  license?: string;
  authors?: Array<{ 'family-names'?: string; 'given-names'?: string; orcid?: string; name?: string }>;
}

/** Where `parts` (as the model keeps them) disagree with the citation, datapackage and card. */
function disagreements(parts: Parts, cff: Cff, pack: Record<string, unknown>, readme: string): string[] {
  const wrong: string[] = [];
  if (parts['title'] !== undefined) {
    if (cff.title !== parts['title']) wrong.push(`CITATION.cff title ${cff.title}, given ${parts['title']}`);
    if (pack['title'] !== parts['title']) wrong.push(`datapackage.json title ${String(pack['title'])}`);
    if (!readme.includes(`pretty_name: ${JSON.stringify(parts['title'])}`))
      wrong.push('the card names another title');
  }
  if (parts['license'] !== undefined) {
    if (cff.license !== parts['license'] && !JSON.stringify(cff).includes(parts['license']))
      wrong.push(`CITATION.cff license ${cff.license}, given ${parts['license']}`);
    const licenses = (pack['licenses'] as Array<{ name: string }> | undefined) ?? [];
    if (licenses[0]?.name !== parts['license']) wrong.push(`datapackage.json license ${licenses[0]?.name}`);
  }
  if (parts['description'] !== undefined) {
    const first = parts['description'].split('\n')[0] ?? '';
    if (!(cff.abstract ?? '').includes(first)) wrong.push(`CITATION.cff's abstract lacks "${first}"`);
  }
  if (parts['authors'] !== undefined) {
    const [authors, orcids] = JSON.parse(parts['authors']) as [string[], string[]];
    const given = authors.map((author) => names(author));
    const cited = (cff.authors ?? []).map((author) => ({
      family: author['family-names'],
      given: author['given-names'],
    }));
    if (JSON.stringify(cited) !== JSON.stringify(given))
      wrong.push(`CITATION.cff authors ${JSON.stringify(cited)}, given ${JSON.stringify(authors)}`);
    orcids.forEach((orcid, i) => {
      if (orcid !== '' && cff.authors?.[i]?.orcid !== `https://orcid.org/${orcid}`)
        wrong.push(`author ${i + 1}'s ORCID iD is ${cff.authors?.[i]?.orcid ?? 'missing'}`);
    });
    const contributors = ((pack['contributors'] as Array<{ title: string }> | undefined) ?? []).map(
      (c) => c.title,
    );
    if (JSON.stringify(contributors) !== JSON.stringify(given.map((name) => `${name.given} ${name.family}`)))
      wrong.push(`datapackage.json contributors ${JSON.stringify(contributors)}`);
  }
  return wrong;
}

/** Each CITATION.cff text checked once (many exports write the same): the parsed file, or why it is not valid. */
const checkedCff = new Map<string, Cff | string>();

function validCff(text: string, scratch: string): Cff | string {
  let checked = checkedCff.get(text);
  if (checked === undefined) {
    writeFileSync(scratch, text);
    try {
      checked = validateCFFFile(scratch) as Cff;
    } catch (error) {
      checked = String(error).slice(0, 400);
    }
    checkedCff.set(text, checked);
  }
  return checked;
}

/** Each datapackage.json checked once: datapackage-js's errors, none when it is valid. */
const checkedPackages = new Map<string, string[]>();

async function packageErrors(text: string, descriptor: object): Promise<string[]> {
  let errors = checkedPackages.get(text);
  if (errors === undefined) {
    const loaded = await datapackage.Package.load(descriptor);
    errors = loaded.valid ? [] : loaded.errors.map(String);
    checkedPackages.set(text, errors);
  }
  return errors;
}

export async function citationAgrees(
  job: ModelJob,
  corpus: CorpusReading,
  scratch: string,
): Promise<Violation[]> {
  const text = corpus.text('CITATION.cff') ?? '';
  const cff = validCff(text, scratch);
  if (typeof cff === 'string') return [{ rule: 'citation: CITATION.cff is valid CFF 1.2.0', detail: cff }];
  const packText = corpus.text('datapackage.json') ?? '{}';
  const pack = JSON.parse(packText) as Record<string, unknown>;
  const readme = corpus.text('README.md') ?? '';
  const version = corpus.manifest.version;
  const released = corpus.manifest.versions
    .find((entry) => entry.version === version)
    ?.released_at.slice(0, 10);
  const versioned: string[] = [];
  if (cff.version !== String(version))
    versioned.push(`CITATION.cff version ${cff.version}, the corpus is ${version}`);
  if (String(cff['date-released']) !== released)
    versioned.push(`date-released ${String(cff['date-released'])}, released ${released}`);
  if (pack['version'] !== String(version))
    versioned.push(`datapackage.json version ${String(pack['version'])}`);
  if (
    (job.citationLast['authors'] ?? job.citation['authors']) === undefined &&
    !text.includes('Scriptorium user')
  )
    versioned.push('no author given, and "Scriptorium user" does not stand in');
  const packErrors = await packageErrors(packText, pack);
  return [
    ...unless('citation: datapackage.json is a valid Frictionless package', packErrors),
    ...unless('citation: the corpus names its version and the day it was released', versioned),
    ...unless(
      'citation: what an export gives reaches CITATION.cff, datapackage.json and the card',
      disagreements(job.citationLast, cff, pack, readme),
    ),
    ...unless(
      'citation: a part given alone keeps the others',
      disagreements(job.citation, cff, pack, readme),
    ),
  ];
}
