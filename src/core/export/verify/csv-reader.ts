/** What a CsvReader takes: a record with more cells, or a longer cell, is refused (CsvLimitError). */
export interface CsvLimits {
  maxCells: number;
  maxCellChars: number;
}

/** A record breaks the reader's limits: too many cells, or a cell too long. */
export class CsvLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvLimitError';
  }
}

/** What ends a run of ordinary characters outside quotes. */
const UNQUOTED_STOP = /[,\r\n"]/g;

/**
 * An RFC 4180 reader fed text in pieces of any size, handing each record to `onRecord` as soon as it
 * ends: quoted fields may hold commas, quotes ("") and line breaks; records end at LF, CRLF or a lone
 * CR outside quotes, and a blank line is a record of no cells, as Python's csv reads them. Memory holds one record within `limits`, and after
 * keepOnly() only the cells of the columns kept (the others come as '', their length still counted).
 */
export class CsvReader {
  readonly #onRecord: (record: string[]) => void;
  readonly #limits: CsvLimits;
  #kept: ReadonlySet<number> | undefined;
  #record: string[] = [];
  #field = '';
  #fieldLength = 0;
  #quoted = false;
  /** The last piece ended on a quote inside a quoted field: an escaped quote or the field's end. */
  #pendingQuote = false;
  /** The last piece ended on a CR, which an LF at the start of the next one belongs to. */
  #pendingCr = false;
  #fieldStarted = false;
  #records = 0;

  constructor(limits: CsvLimits, onRecord: (record: string[]) => void) {
    this.#limits = limits;
    this.#onRecord = onRecord;
  }

  /** From the next cell on, keeps only the cells of these columns (from 0). */
  keepOnly(columns: Iterable<number>): void {
    this.#kept = new Set(columns);
  }

  push(text: string): void {
    let at = 0;
    while (at < text.length) {
      const char = text[at];
      if (this.#pendingCr) {
        this.#pendingCr = false;
        if (char === '\n') {
          at += 1;
          continue;
        }
      }
      if (this.#pendingQuote) {
        this.#pendingQuote = false;
        if (char === '"') {
          this.#append('"');
          at += 1;
          continue;
        }
        this.#quoted = false;
      }
      if (this.#quoted) {
        const quote = text.indexOf('"', at);
        this.#append(text.slice(at, quote === -1 ? text.length : quote));
        if (quote === -1) return;
        this.#pendingQuote = true;
        at = quote + 1;
      } else if (char === '"' && !this.#fieldStarted) {
        this.#quoted = true;
        this.#fieldStarted = true;
        at += 1;
      } else if (char === ',') {
        this.#endField();
        at += 1;
      } else if (char === '\n' || char === '\r') {
        this.#pendingCr = char === '\r';
        this.#endRecord();
        at += 1;
      } else {
        // Ordinary characters up to the next comma, line break or quote (a quote inside a field is kept).
        UNQUOTED_STOP.lastIndex = at + 1;
        const stop = UNQUOTED_STOP.exec(text)?.index ?? text.length;
        const end = char === '"' ? at + 1 : stop;
        this.#append(text.slice(at, end));
        this.#fieldStarted = true;
        at = end;
      }
    }
  }

  /** Ends the text: hands over the last record, when the text did not end with a line break. */
  end(): void {
    if (this.#pendingQuote) {
      this.#pendingQuote = false;
      this.#quoted = false;
    }
    if (!this.#fieldStarted && this.#record.length === 0) return;
    this.#endRecord();
  }

  #tooLong(column: number): never {
    throw new CsvLimitError(
      `record ${this.#records + 1}, cell ${column + 1} holds more than ` +
        `${this.#limits.maxCellChars.toLocaleString('en-US')} characters`,
    );
  }

  #append(text: string): void {
    this.#fieldLength += text.length;
    if (this.#fieldLength > this.#limits.maxCellChars) this.#tooLong(this.#record.length);
    if (this.#kept === undefined || this.#kept.has(this.#record.length)) this.#field += text;
  }

  #endField(): void {
    this.#record.push(this.#field);
    this.#field = '';
    this.#fieldLength = 0;
    this.#fieldStarted = false;
    if (this.#record.length > this.#limits.maxCells) {
      throw new CsvLimitError(`record ${this.#records + 1} has more than ${this.#limits.maxCells} cells`);
    }
  }

  /** Ends a record; a blank line is a record of no cells, as Python's csv reads it. */
  #endRecord(): void {
    if (this.#record.length > 0 || this.#fieldStarted) this.#endField();
    const record = this.#record;
    this.#record = [];
    this.#records += 1;
    this.#onRecord(record);
  }
}
