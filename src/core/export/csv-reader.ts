/**
 * An RFC 4180 reader fed text in pieces of any size: quoted fields may hold commas, quotes ("") and
 * line breaks; records end at LF, CRLF or a lone CR outside quotes, as Python's csv reads them.
 */
export class CsvReader {
  #record: string[] = [];
  #field = '';
  #quoted = false;
  /** The last piece ended on a quote inside a quoted field: an escaped quote or the field's end. */
  #pendingQuote = false;
  /** The last piece ended on a CR, which an LF at the start of the next one belongs to. */
  #pendingCr = false;
  #fieldStarted = false;

  /** The records completed by `text`. */
  push(text: string): string[][] {
    const records: string[][] = [];
    for (const char of text) {
      if (this.#pendingCr) {
        this.#pendingCr = false;
        if (char === '\n') continue;
      }
      if (this.#pendingQuote) {
        this.#pendingQuote = false;
        if (char === '"') {
          this.#field += '"';
          continue;
        }
        this.#quoted = false;
      }
      if (this.#quoted) {
        if (char === '"') this.#pendingQuote = true;
        else this.#field += char;
      } else if (char === '"' && !this.#fieldStarted) {
        this.#quoted = true;
        this.#fieldStarted = true;
      } else if (char === ',') this.#endField();
      else if (char === '\n' || char === '\r') {
        this.#pendingCr = char === '\r';
        this.#endField();
        records.push(this.#record);
        this.#record = [];
      } else {
        this.#field += char;
        this.#fieldStarted = true;
      }
    }
    return records;
  }

  /** The last record, when the text did not end with a line break. */
  end(): string[][] {
    if (this.#pendingQuote) {
      this.#pendingQuote = false;
      this.#quoted = false;
    }
    if (!this.#fieldStarted && this.#record.length === 0) return [];
    this.#endField();
    const record = this.#record;
    this.#record = [];
    return [record];
  }

  #endField(): void {
    this.#record.push(this.#field);
    this.#field = '';
    this.#fieldStarted = false;
  }
}
