/** The file is not a ZIP this reader can read; the message says why, in plain words. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

/**
 * An entry is compressed in a way this reader does not read (Deflate64, Zstandard, PPMd…): nothing is
 * known of its bytes, neither sound nor damaged. `method` names it for a person.
 */
export class UnreadableMethodError extends Error {
  constructor(readonly method: string) {
    super(`it is compressed with ${method}, which this reader cannot read`);
    this.name = 'UnreadableMethodError';
  }
}

/** The ZIP lists more entries than this reader holds (MAX_ENTRIES). */
export class ZipLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipLimitError';
  }
}

/** The path names something other than a regular file (a folder, a named pipe, a device), which is not read. */
export class NotAFileError extends Error {
  constructor(readonly what: string) {
    super(`it is ${what}, not a file`);
    this.name = 'NotAFileError';
  }
}
