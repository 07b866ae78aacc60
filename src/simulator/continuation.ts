/**
 * Continuation tokens: base64url of a small JSON cursor plus an HMAC, so a token is opaque, survives a
 * restart (the key comes from the seed) and any tampering is detected and refused with a 422.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

const cursorSchema = z.object({
  /** Which list: 'playlist' (playlist/videos) or 'channel' (channel/videos). */
  list: z.enum(['playlist', 'channel']),
  /** Playlist ID or channel ID. */
  id: z.string().min(1).max(200),
  /** Items already served. */
  offset: z.number().int().min(0),
});

export type Cursor = z.infer<typeof cursorSchema>;

const MAC_BYTES = 16;

export class ContinuationCodec {
  readonly #key: Buffer;

  constructor(seed: number) {
    this.#key = createHmac('sha256', 'scriptorium-simulator').update(String(seed)).digest();
  }

  #mac(payload: string): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest().subarray(0, MAC_BYTES);
  }

  encode(cursor: Cursor): string {
    const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
    return `${payload}.${this.#mac(payload).toString('base64url')}`;
  }

  /** The cursor in a token this simulator (or one with the same seed) issued, else null. */
  decode(token: string): Cursor | null {
    const [payload, mac, extra] = token.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
