/** Containers may nest this deep; deeper, the text is refused rather than tracked. */
const MAX_DEPTH = 512;
/** The longest number or literal taken. */
const MAX_SCALAR_CHARS = 512;
/** Top-level keys are compared only up to this length; the field's own name is far shorter. */
const MAX_KEY_CHARS = 256;
/** The most text kept of the field's value. */
const MAX_FIELD_CHARS = 64 * 1024;

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_CHAR = /^[0-9eE.+-]$/;
const LITERALS: ReadonlySet<string> = new Set(['true', 'false', 'null']);
/** What ends a run of ordinary characters inside a string: its closing quote, an escape, a control character. */
// eslint-disable-next-line no-control-regex -- JSON forbids these in strings: finding them is the point
const STRING_STOP = /["\\\u0000-\u001f]/g;
const HEX_DIGIT = /^[0-9a-fA-F]$/;
const WHITE_SPACE: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r']);

/** What the reader expects next, outside a string, number or literal. */
type Expect = 'value' | 'value or ]' | 'key or }' | 'key' | ':' | ', or close' | 'end';

/** What a JSON document read whole gives: the field's value, or why there is none. */
export type FieldReading = { found: true; value: unknown } | { found: false; problem: string };

/**
 * Reads a JSON document as it streams in, piece by piece: checks that it is one well-formed value and
 * keeps the text of one field of its top-level object. Memory holds that field and the nesting, never
 * the document, so a manifest.json of any size (or a crafted one of gigabytes) costs a few kilobytes.
 */
export class JsonFieldReader {
  readonly #field: string;
  /** The open containers, `{` or `[`, outermost first. */
  #stack: string[] = [];
  #expect: Expect = 'value';
  #token: 'none' | 'string' | 'number' | 'literal' = 'none';
  #stringIsKey = false;
  /** Inside a string: 0, or -1 just after a backslash, or how many hex digits of a \u escape remain. */
  #escape = 0;
  /** The number or literal read so far. */
  #scalar = '';
  /** The raw text of the top-level key being read (escapes undecoded); undefined once too long. */
  #key: string | undefined = '';
  /** The last top-level key was the field's name: its value is the one to keep. */
  #keyIsField = false;
  #capturing = false;
  /** In the piece being read, where the kept text starts. */
  #captureFrom = 0;
  #captured = '';
  #value: string | undefined;
  #problem: string | undefined;

  constructor(field: string) {
    this.#field = field;
  }

  push(text: string): void {
    let at = 0;
    while (at < text.length && this.#problem === undefined) {
      if (this.#token === 'string') {
        at = this.#readString(text, at);
        continue;
      }
      const char = text[at] ?? '';
      if (this.#token !== 'none') {
        if (this.#token === 'number' ? NUMBER_CHAR.test(char) : char >= 'a' && char <= 'z') {
          this.#scalar += char;
          if (this.#scalar.length > MAX_SCALAR_CHARS) this.#fail('a number or word is too long');
          at += 1;
          continue;
        }
        this.#endScalar(text, at);
        continue;
      }
      if (!WHITE_SPACE.has(char)) this.#structure(char, text, at);
      at += 1;
    }
    if (this.#capturing) {
      this.#keep(text.slice(this.#captureFrom));
      this.#captureFrom = 0;
    }
  }

  /** The field's value once the whole document has been pushed. */
  end(): FieldReading {
    if (this.#token === 'number' || this.#token === 'literal') this.#endScalar('', 0);
    if (this.#problem === undefined && this.#expect !== 'end') {
      this.#fail(this.#stack.length === 0 && this.#token === 'none' ? 'it is empty' : 'it is cut short');
    }
    if (this.#problem !== undefined) return { found: false, problem: `it is not JSON: ${this.#problem}` };
    if (this.#value === undefined) return { found: false, problem: `it has no "${this.#field}" field` };
    return { found: true, value: JSON.parse(this.#value) };
  }

  /** `char` outside any string, number or literal, at `text[at]`. */
  #structure(char: string, text: string, at: number): void {
    switch (this.#expect) {
      case 'value':
      case 'value or ]':
        if (char === ']' && this.#expect === 'value or ]') this.#close(char, text, at);
        else this.#startValue(char, text, at);
        return;
      case 'key or }':
      case 'key':
        if (char === '}' && this.#expect === 'key or }') this.#close(char, text, at);
        else if (char === '"') {
          this.#token = 'string';
          this.#stringIsKey = true;
          this.#key = '';
        } else this.#fail(`expected a key, found ${JSON.stringify(char)}`);
        return;
      case ':':
        if (char === ':') this.#expect = 'value';
        else this.#fail(`expected ":", found ${JSON.stringify(char)}`);
        return;
      case ', or close':
        if (char === ',') this.#expect = this.#stack.at(-1) === '{' ? 'key' : 'value';
        else if (char === '}' || char === ']') this.#close(char, text, at);
        else this.#fail(`expected "," or the end of a container, found ${JSON.stringify(char)}`);
        return;
      case 'end':
        this.#fail('more text follows the JSON value');
    }
  }

  #startValue(char: string, text: string, at: number): void {
    if (this.#stack.length === 1 && this.#stack[0] === '{' && this.#keyIsField) {
      this.#capturing = true;
      this.#captureFrom = at;
      this.#captured = '';
    }
    this.#keyIsField = false;
    if (char === '{' || char === '[') {
      if (this.#stack.length >= MAX_DEPTH) this.#fail(`it nests deeper than ${MAX_DEPTH} levels`);
      this.#stack.push(char);
      this.#expect = char === '{' ? 'key or }' : 'value or ]';
    } else if (char === '"') {
      this.#token = 'string';
      this.#stringIsKey = false;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      this.#token = 'number';
      this.#scalar = char;
    } else if (char >= 'a' && char <= 'z') {
      this.#token = 'literal';
      this.#scalar = char;
    } else this.#fail(`expected a value, found ${JSON.stringify(char)}`);
  }

  #close(char: string, text: string, at: number): void {
    const open = this.#stack.pop();
    if ((open === '{' ? '}' : ']') !== char) {
      this.#fail(`${JSON.stringify(char)} closes nothing open`);
      return;
    }
    this.#valueEnded(text, at + 1);
  }

  /** Reads inside a string from `text[at]`; returns where reading goes on. */
  #readString(text: string, at: number): number {
    if (this.#escape !== 0) {
      const char = text[at] ?? '';
      this.#addToKey(char);
      if (this.#escape === -1) {
        if (char === 'u') this.#escape = 4;
        else if ('"\\/bfnrt'.includes(char)) this.#escape = 0;
        else this.#fail(`a string holds the unknown escape \\${char}`);
      } else if (HEX_DIGIT.test(char)) this.#escape -= 1;
      else this.#fail('a string holds a \\u escape without four hex digits');
      return at + 1;
    }
    STRING_STOP.lastIndex = at;
    const stop = STRING_STOP.exec(text)?.index ?? text.length;
    this.#addToKey(text.slice(at, stop));
    if (stop === text.length) return stop;
    const char = text[stop];
    if (char === '"') this.#endString(text, stop + 1);
    else if (char === '\\') {
      this.#addToKey(char);
      this.#escape = -1;
    } else this.#fail('a string holds a control character');
    return stop + 1;
  }

  #addToKey(text: string): void {
    if (!this.#stringIsKey || this.#stack.length !== 1 || this.#key === undefined) return;
    this.#key += text;
    if (this.#key.length > MAX_KEY_CHARS) this.#key = undefined;
  }

  #endString(text: string, end: number): void {
    this.#token = 'none';
    if (!this.#stringIsKey) {
      this.#valueEnded(text, end);
      return;
    }
    this.#expect = ':';
    this.#keyIsField =
      this.#stack.length === 1 && this.#key !== undefined && JSON.parse(`"${this.#key}"`) === this.#field;
  }

  /** A number or literal ends before `text[at]`. */
  #endScalar(text: string, at: number): void {
    const valid = this.#token === 'number' ? NUMBER.test(this.#scalar) : LITERALS.has(this.#scalar);
    this.#token = 'none';
    if (!valid) this.#fail(`${JSON.stringify(this.#scalar)} is not a JSON value`);
    else this.#valueEnded(text, at);
  }

  /** A value ended just before `text[end]`. */
  #valueEnded(text: string, end: number): void {
    if (this.#capturing && this.#stack.length === 1) {
      this.#keep(text.slice(this.#captureFrom, end));
      this.#capturing = false;
      this.#value = this.#captured;
      this.#captured = '';
    }
    this.#expect = this.#stack.length === 0 ? 'end' : ', or close';
  }

  #keep(text: string): void {
    this.#captured += text;
    if (this.#captured.length > MAX_FIELD_CHARS) {
      this.#fail(`its "${this.#field}" field is longer than ${MAX_FIELD_CHARS} characters`);
    }
  }

  #fail(problem: string): void {
    this.#problem ??= problem;
    this.#capturing = false;
    this.#captured = '';
  }
}
