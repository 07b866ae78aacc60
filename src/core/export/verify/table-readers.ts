import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { CORPUS_STATUSES } from '../../../shared/vocabulary';
import { CsvLimitError, CsvReader } from './csv-reader';
import { Differences } from './differences';
import { JsonFieldReader, type FieldReading } from './json-field-reader';
import { CORPUS_ENTRY, MAX_CSV_CELL_CHARS, PATH_LIST_SEPARATOR } from '../corpus/schema';
import { printable } from '../zip/layout';

/**
 * What `verify` reads of the tables as they stream: manifest.json's counts and index.csv's statuses
 * and files, kept to what is checked (verify.ts), then compared.
 */

const MANIFEST = CORPUS_ENTRY.manifest;
const INDEX = CORPUS_ENTRY.index;
/** index.csv has 17 columns; a record of more than this many cells is no row of it. */
const MAX_INDEX_CELLS = 1000;

/** The corpus's files by the names it gives them (in a ZIP: packed-names.ts CorpusEntries; or a folder). */
export interface NamedEntries {
  /** Undefined when there is no file of that name. */
  find(name: string): unknown;
}

/** What reads an entry as it streams, piece by piece (a piece is only lent for the call). */
export interface PieceReader {
  push(piece: Buffer): void;
  /** The entry was read whole, and its bytes matched its CRC-32. */
  end(): void;
}

/** manifest.json's counts, read as it streams (JsonFieldReader): a manifest of any size takes little memory. */
export class ManifestCounts implements PieceReader {
  readonly #decoder = new StringDecoder('utf8');
  readonly #reader = new JsonFieldReader('counts');
  /** What was read, once the entry was read whole and intact. */
  reading: FieldReading | undefined;

  push(piece: Buffer): void {
    this.#reader.push(this.#decoder.write(piece));
  }

  end(): void {
    this.#reader.push(this.#decoder.end());
    this.reading = this.#reader.end();
  }
}

/**
 * index.csv's rows counted by status, and the files they name that the ZIP does not hold, read as it
 * streams: only the status and files cells are kept, each row at a time.
 */
export class IndexTally implements PieceReader {
  readonly counts = new Map<string, number>();
  /** The files named that the ZIP lacks: a few listed, all counted. */
  readonly missingFiles = new Differences();
  rows = 0;
  /** Whether index.csv was read to its end, intact. */
  complete = false;
  /** Why index.csv could not be read, when it could not. */
  problem: string | undefined;
  readonly #entries: NamedEntries;
  readonly #decoder = new StringDecoder('utf8');
  readonly #reader = new CsvReader(
    { maxCells: MAX_INDEX_CELLS, maxCellChars: MAX_CSV_CELL_CHARS },
    (record) => this.#add(record),
  );
  #statusColumn = -1;
  #filesColumn = -1;
  #header = true;

  constructor(entries: NamedEntries) {
    this.#entries = entries;
  }

  push(piece: Buffer): void {
    this.#read(() => this.#reader.push(this.#decoder.write(piece)));
  }

  end(): void {
    this.#read(() => {
      this.#reader.push(this.#decoder.end());
      this.#reader.end();
      this.complete = true;
    });
  }

  /** Feeds the CSV reader, until a record breaks its limits: then the table is not read further. */
  #read(step: () => void): void {
    if (this.problem !== undefined) return;
    try {
      step();
    } catch (error) {
      if (!(error instanceof CsvLimitError)) throw error;
      this.problem = error.message;
    }
  }

  #add(record: string[]): void {
    if (this.#header) {
      this.#header = false;
      this.#statusColumn = record.indexOf('status');
      this.#filesColumn = record.indexOf('files');
      this.#reader.keepOnly([this.#statusColumn, this.#filesColumn]);
      return;
    }
    // A blank line is no row, as csv.DictReader and pandas read the table.
    if (record.length === 0) return;
    this.rows += 1;
    const status = record[this.#statusColumn] ?? '';
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    const files = record[this.#filesColumn] ?? '';
    for (const path of files === '' ? [] : files.split(PATH_LIST_SEPARATOR)) {
      if (this.#entries.find(path) === undefined) {
        this.missingFiles.add(
          'missing file',
          () => `${printable(path)} (named in ${INDEX}, row ${this.rows})`,
        );
      }
    }
  }
}

const ManifestCountsSchema = z.object({
  videos: z.number(),
  ok: z.number(),
  unavailable: z.number(),
  failed: z.number(),
  pending: z.number(),
  skipped: z.number(),
});

/** Adds where manifest.json's counts and index.csv's rows disagree. */
export function countDifferences(
  manifest: ManifestCounts,
  index: IndexTally,
  differences: Differences,
): void {
  const reading = manifest.reading;
  if (reading === undefined) {
    differences.add('counts', `not checked, as ${MANIFEST} could not be read`);
    return;
  }
  if (!index.complete) {
    const why = index.problem === undefined ? 'could not be read' : `could not be read: ${index.problem}`;
    differences.add('counts', `not checked, as ${INDEX} ${why}`);
    return;
  }
  const counts = reading.found ? ManifestCountsSchema.safeParse(reading.value) : undefined;
  if (counts?.success !== true) {
    const why = reading.found ? 'are not all numbers' : reading.problem;
    differences.add('counts', `not checked, as ${MANIFEST} holds no counts (${why})`);
    return;
  }
  const { data } = counts;
  if (data.videos !== index.rows) {
    differences.add('counts', `${MANIFEST} says ${data.videos} videos, ${INDEX} lists ${index.rows}`);
  }
  // The statuses whose counts manifest.json gives and index.csv must match.
  for (const status of CORPUS_STATUSES) {
    const listed = index.counts.get(status) ?? 0;
    if (data[status] !== listed) {
      differences.add('counts', `${MANIFEST} says ${data[status]} ${status}, ${INDEX} lists ${listed}`);
    }
  }
}
