/**
 * A Transcript Service that misbehaves on purpose, for testing how the client and engine defend
 * themselves. It speaks the wire format of src/simulator (endpoints.ts, items.ts, problem+json errors)
 * and charges like the service (1 credit per 200 on a paid endpoint), but one scenario, chosen at
 * start, breaks a rule a well-behaved service keeps. Whatever the scenario leaves alone is answered
 * normally, so a job can run to its end. State is a few counters: start one service per test.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileScenario =
  /** playlist/videos and channel/videos tokens go A -> B -> A -> B ..., each page with new videos. */
  | 'cursor-cycle'
  /** Every list page holds the same 100 videos, with a fresh token and has_more true. */
  | 'same-videos'
  /** Every list page brings 100 new videos and a fresh token, forever. */
  | 'endless-new'
  /** Every list page is empty, with a fresh token and has_more true. */
  | 'empty-pages'
  /**
   * The first list page brings new videos and a continuation token of HUGE_CURSOR_CHARS characters:
   * sent back, it makes a request line Node's server refuses with 431, as a real one would.
   */
  | 'huge-cursor'
  /** Transcript segments start and last 1.7e308, 1e12, -5 and "NaN" seconds. */
  | 'absurd-times'
  /** Every answer echoes the bearer key: request_id, X-Request-Id, a problem's detail, a segment's text. */
  | 'echo-key'
  /** transcript answers 429 with Retry-After: 3600. */
  | 'retry-after-huge'
  /** Lists and transcripts answer what a HostileScript says, fields of any type and value included. */
  | 'scripted'
  /** transcript answers 200 and then sends JSON without end, as long as the client reads. */
  | 'endless-answer';

/**
 * What a 'scripted' service answers: every playlist or channel is one page of `listItems`, sent as
 * they are (fields of the wrong types, odd positions, hostile texts), and each transcript the body
 * `transcript` gives for its video (by default, two ordinary segments).
 */
export interface HostileScript {
  listItems: unknown[];
  transcript?: (videoId: string) => unknown;
  /** What playlist_info says the list holds; by default, as many as `listItems`. */
  claimedSize?: string;
}

export interface HostileService {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Requests received, by endpoint ('playlist/videos', 'transcript', ...). */
  requests(): Record<string, number>;
  /** Credits the service would have taken: one per 200 on a paid endpoint. */
  charged(): number;
  /** Bytes of body sent by 'endless-answer' so far (what the client was made to read, at most). */
  bytesStreamed(): number;
  close(): Promise<void>;
}

/** The length of the 'huge-cursor' scenario's continuation token. */
export const HUGE_CURSOR_CHARS = 100_000;

/** What every hostile list claims to hold, whatever its pages bring. */
export const CLAIMED_LIST_SIZE = 120;

const PAID = new Set(['playlist/videos', 'channel/videos', 'transcript', 'search']);
const PAGE_SIZE = 100;
const CHANNEL_ID = 'UChostileServiceChannel1';
const PROBLEMS: Record<number, { kind: string; title: string; code: string }> = {
  401: { kind: 'unauthorized', title: 'Unauthorized', code: 'E_UNAUTHORIZED' },
  404: { kind: 'not-found', title: 'Not found', code: 'E_NOT_FOUND' },
  429: { kind: 'rate-limited', title: 'Too many requests', code: 'E_RATE_LIMITED' },
};

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An 11-character video ID: a prefix, then a number padded with zeros. */
function videoId(prefix: string, number: number): string {
  return prefix + String(number).padStart(11 - prefix.length, '0');
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

const SAME_VIDEOS = range(PAGE_SIZE).map((i) => videoId('same', i));
const ORDINARY_VIDEOS = range(3).map((i) => videoId('fine', i));
/** Seconds no transcript can hold: near the largest double, 31,700 years, before the start, not a number. */
const ABSURD_TIMES = [1.7e308, 1e12, -5, 'NaN'];

export async function startHostileService(
  scenario: HostileScenario,
  script: HostileScript = { listItems: [] },
): Promise<HostileService> {
  const counts: Record<string, number> = {};
  let charged = 0;
  let bytesStreamed = 0;
  let pagesServed = 0;
  let requestsServed = 0;
  let url = '';

  function problem(status: number, detail: string, extra: Record<string, unknown> = {}): Reply {
    const { kind, title, code } = PROBLEMS[status] ?? { kind: 'error', title: 'Error', code: 'E_ERROR' };
    return { status, body: { type: `${url}/api/errors/${kind}`, title, status, detail, code, ...extra } };
  }

  /** A playlist/videos (snake_case) or channel/videos (camelCase) page of the given videos. */
  function listPage(
    endpoint: string,
    ids: string[],
    token: string | null,
    claimed = CLAIMED_LIST_SIZE,
  ): Reply {
    const firstIndex = (pagesServed - 1) * PAGE_SIZE + 1;
    const results = ids.map((id, i) =>
      endpoint === 'playlist/videos'
        ? { type: 'video', index: firstIndex + i, video_id: id, title: `Video ${id}`, has_captions: true }
        : { type: 'video', index: firstIndex + i, videoId: id, title: `Video ${id}`, hasCaptions: true },
    );
    return {
      status: 200,
      body: {
        results,
        result_count: results.length,
        continuation_token: token,
        has_more: token !== null,
        playlist_info: { title: 'A hostile list', num_videos: String(claimed), owner_name: 'Hostile' },
      },
    };
  }

  /** The script's one page, its items as they are. */
  function scriptedPage(): Reply {
    const results = script.listItems;
    const claimed = script.claimedSize ?? String(results.length);
    return {
      status: 200,
      body: {
        results,
        result_count: results.length,
        continuation_token: null,
        has_more: false,
        playlist_info: { title: 'A scripted list', num_videos: claimed, owner_name: 'Hostile' },
      },
    };
  }

  /** The next page of a list: an ordinary one-page list unless the scenario is about lists. */
  function list(endpoint: string, token: string | null): Reply {
    pagesServed += 1;
    const freshToken = `page-${pagesServed}`;
    // Named after the page that brings them, so no two pages share a video.
    const newVideos = () => range(PAGE_SIZE).map((i) => videoId(`p${pagesServed}x`, i));
    switch (scenario) {
      case 'cursor-cycle':
        return listPage(endpoint, newVideos(), token === 'cycle-A' ? 'cycle-B' : 'cycle-A');
      case 'same-videos':
        return listPage(endpoint, SAME_VIDEOS, freshToken);
      case 'endless-new':
        return listPage(endpoint, newVideos(), freshToken);
      case 'empty-pages':
        return listPage(endpoint, [], freshToken);
      case 'huge-cursor':
        return listPage(endpoint, newVideos(), 'c'.repeat(HUGE_CURSOR_CHARS));
      case 'scripted':
        return scriptedPage();
      default:
        return listPage(endpoint, ORDINARY_VIDEOS, null, ORDINARY_VIDEOS.length);
    }
  }

  function transcript(params: URLSearchParams, key: string): Reply {
    if (scenario === 'retry-after-huge') {
      return {
        ...problem(429, 'Rate limit exceeded.', { retry_after: 3600 }),
        headers: { 'Retry-After': '3600' },
      };
    }
    const id = params.get('video_url') ?? '';
    if (id.startsWith('nocap')) return problem(404, 'no captions');
    if (scenario === 'scripted' && script.transcript !== undefined) {
      return { status: 200, body: script.transcript(id) as Record<string, unknown> };
    }
    const segments =
      scenario === 'absurd-times'
        ? ABSURD_TIMES.map((time) => ({
            text: `At ${time} seconds.`,
            start: time,
            duration: time,
          }))
        : [
            { text: 'A normal first line.', start: 0, duration: 2.5 },
            {
              text: scenario === 'echo-key' ? `Your key is ${key}.` : 'A normal second line.',
              start: 2.5,
              duration: 3,
            },
          ];
    return {
      status: 200,
      body: {
        video_id: id,
        language: params.get('lang') ?? 'en',
        transcript: segments,
        ...(params.get('send_metadata') === 'true'
          ? { metadata: { title: `Video ${id}`, author_name: 'Hostile' } }
          : {}),
      },
    };
  }

  function answer(endpoint: string, params: URLSearchParams, key: string): Reply {
    switch (endpoint) {
      case 'playlist/videos':
      case 'channel/videos':
        return list(endpoint, params.get('continuation'));
      case 'channel/resolve':
        return { status: 200, body: { channel_id: CHANNEL_ID, resolved_from: params.get('input') ?? '' } };
      case 'transcript':
        return transcript(params, key);
      case 'search': {
        const results = range(3).map((i) => ({
          type: 'video',
          videoId: videoId('found', i),
          title: `Found ${i}`,
        }));
        return { status: 200, body: { results, result_count: results.length } };
      }
      default:
        return problem(404, `There is no endpoint at /api/v2/${endpoint}.`);
    }
  }

  /** Writes the reply; in 'echo-key' every answer carries the key, in its request id and a problem's detail. */
  function send(res: ServerResponse, path: string, reply: Reply, key: string | undefined): void {
    const echo = scenario === 'echo-key' && key !== undefined;
    const requestId = echo ? `req_${key}` : `req_${requestsServed}`;
    const isProblem = reply.status >= 400;
    const detail = `${String(reply.body['detail'])}${echo ? ` (key ${key})` : ''}`;
    const body = isProblem
      ? { ...reply.body, detail, instance: path, request_id: requestId }
      : { ...reply.body, ...(echo ? { request_id: requestId } : {}) };
    const text = JSON.stringify(body);
    res.writeHead(reply.status, {
      ...reply.headers,
      'X-Request-Id': requestId,
      'Content-Type': isProblem ? 'application/problem+json' : 'application/json',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  /** A 200 whose body never ends: a megabyte of a segment's text at a time, while the client reads. */
  function streamWithoutEnd(res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"video_id": "dQw4w9WgXcQ", "transcript": [{"text": "');
    const megabyte = 'a'.repeat(1024 * 1024);
    const more = (): void => {
      while (!res.destroyed && res.write(megabyte)) bytesStreamed += megabyte.length;
    };
    res.on('drain', more);
    more();
  }

  const server = createServer((req, res) => {
    requestsServed += 1;
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const endpoint = pathname.replace(/^\/api\/v2\//, '');
    counts[endpoint] = (counts[endpoint] ?? 0) + 1;
    const key = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')?.[1];
    const reply =
      key === undefined
        ? problem(401, 'Send the header Authorization: Bearer <API key>.')
        : answer(endpoint, searchParams, key);
    if (reply.status === 200 && PAID.has(endpoint)) charged += 1;
    if (scenario === 'endless-answer' && endpoint === 'transcript' && reply.status === 200) {
      return streamWithoutEnd(res);
    }
    send(res, pathname, reply, key);
  });
  // Neither the server nor a kept-alive connection may keep a test process running.
  server.unref();
  server.on('connection', (socket) => socket.unref());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests: () => ({ ...counts }),
    charged: () => charged,
    bytesStreamed: () => bytesStreamed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
