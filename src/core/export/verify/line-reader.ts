const LINE_FEED = 0x0a;

/**
 * Splits bytes fed in pieces of any size into lines ended by LF, handing each to `onLine` without its
 * LF. Memory holds one line of at most `maxBytes`: a longer one is handed over as `undefined`, its
 * bytes dropped as they come.
 */
export class LineReader {
  readonly #maxBytes: number;
  readonly #onLine: (line: Buffer | undefined) => void;
  #partial: Buffer = Buffer.alloc(0);
  #tooLong = false;

  constructor(maxBytes: number, onLine: (line: Buffer | undefined) => void) {
    this.#maxBytes = maxBytes;
    this.#onLine = onLine;
  }

  push(piece: Buffer): void {
    let at = 0;
    while (at < piece.length) {
      const lineFeed = piece.indexOf(LINE_FEED, at);
      const end = lineFeed === -1 ? piece.length : lineFeed;
      this.#take(piece.subarray(at, end));
      if (lineFeed === -1) return;
      this.#endLine();
      at = lineFeed + 1;
    }
  }

  /** Hands over the last line, when the bytes did not end with an LF. */
  end(): void {
    if (this.#partial.length > 0 || this.#tooLong) this.#endLine();
  }

  #take(bytes: Buffer): void {
    if (this.#tooLong || bytes.length === 0) return;
    if (this.#partial.length + bytes.length > this.#maxBytes) {
      this.#tooLong = true;
      this.#partial = Buffer.alloc(0);
      return;
    }
    // A copy: the piece is only lent for the call.
    this.#partial = Buffer.concat([this.#partial, bytes]);
  }

  #endLine(): void {
    this.#onLine(this.#tooLong ? undefined : this.#partial);
    this.#partial = Buffer.alloc(0);
    this.#tooLong = false;
  }
}
