/**
 * Seeded, stateless randomness: every generated value is a pure function of (seed, id, ...), so a
 * restarted simulator answers exactly the same and nothing has to be stored.
 */

/** A 32-bit hash of the parts (FNV-1a over the joined text, then murmur3's finaliser for avalanche). */
export function hash32(seed: number, ...parts: readonly (string | number)[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) derived from the parts. */
export function unitHash(seed: number, ...parts: readonly (string | number)[]): number {
  return hash32(seed, ...parts) / 0x1_0000_0000;
}

export const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A small, fast PRNG (mulberry32) for generating a sequence of values from one hash. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** `length` characters of [A-Za-z0-9_-]. */
  idChars(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ID_ALPHABET[Math.floor(this.next() * 64)];
    return out;
  }
}

/** A PRNG seeded from the parts. */
export function rngFor(seed: number, ...parts: readonly (string | number)[]): Rng {
  return new Rng(hash32(seed, ...parts));
}
