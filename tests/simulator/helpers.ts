import { request } from 'node:http';
import type { RunningSimulator } from '../../src/simulator';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (throws when it is not JSON); check it with a schema from ./schemas. */
  json: () => unknown;
}

/** GET an /api/v2 endpoint with the simulator's key (or the given headers) and a User-Agent. */
export async function api(
  sim: RunningSimulator,
  endpoint: string,
  query: Record<string, string> = {},
  init: { headers?: Record<string, string>; method?: string } = {},
): Promise<Reply> {
  const url = `${sim.url}/api/v2/${endpoint}?${new URLSearchParams(query)}`;
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers ?? { authorization: `Bearer ${sim.key}`, 'user-agent': 'simulator-tests/1' },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A GET through node:http, which (unlike fetch) sends no User-Agent unless told to. */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
