import type { IncomingMessage } from 'node:http';

/** A request's body: its text, or that it passed the limit (the rest is not read). */
export type RequestBody = { kind: 'text'; text: string } | { kind: 'too large' };

export async function readBody(request: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    request.resume();
    return { kind: 'too large' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      request.resume();
      return { kind: 'too large' };
    }
    chunks.push(chunk);
  }
  return { kind: 'text', text: Buffer.concat(chunks).toString('utf8') };
}
