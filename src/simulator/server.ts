/**
 * Starts one simulator: its state (account, request log, faults, rate windows), a plain node:http
 * server on 127.0.0.1 for /api/v2 and /__admin/, and a close() that never leaves a test hanging.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { Account } from './account';
import { handleAdmin } from './admin-http';
import { createApiHandler } from './api-handler';
import { JSON_TYPE } from './replies';
import { ContinuationCodec } from './continuation';
import type { Catalog } from './catalog';
import { channelIdFromHandle } from './channel-ids';
import { describers } from './describe';
import { createEndpoints } from './endpoints';
import { FaultBook } from './faults';
import type { ArrivingRequest, RunningSimulator, SimulatorAdmin, SimulatorOptions } from './index';
import { parsePlaylistId } from './ids';
import { DEFAULT_PAGE_SIZE } from './lists';
import { PlaylistEditBook } from './playlist-edits';
import { FixedWindowLimiter } from './rate-limiter';
import { RequestLog } from './request-log';
import { UploadBook } from './uploads';
import { createValidators } from './validation';

export interface ServerOptions extends SimulatorOptions {
  /** Accepted bearer keys (at least one). */
  keys: string[];
}

const optionsSchema = z.object({
  port: z.number().int().min(0).max(65535).default(0),
  keys: z.array(z.string().min(1)).min(1),
  credits: z.number().int().min(0).default(100),
  rateLimit: z.object({ limit: z.number().int().min(1), windowMs: z.number().int().min(1) }).nullish(),
  rateLimitHeaders: z.enum(['standard', 'x']).default('standard'),
  latencyMs: z.number().min(0).default(0),
  seed: z.number().int().default(1),
  pageSize: z.number().int().min(1).max(1000).default(DEFAULT_PAGE_SIZE),
});

export async function startServer(options: ServerOptions): Promise<RunningSimulator> {
  const config = optionsSchema.parse(options);
  const codec = new ContinuationCodec(config.seed);
  const account = new Account(config.credits);
  const log = new RequestLog();
  const faults = new FaultBook(config.seed);
  const limiter = config.rateLimit
    ? new FixedWindowLimiter(config.rateLimit.limit, config.rateLimit.windowMs)
    : null;
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';
  let requestSeq = 0;
  const now = options.now ?? Date.now;
  const catalog: Catalog = {
    seed: config.seed,
    uploads: new UploadBook(config.seed),
    edits: new PlaylistEditBook(config.seed),
    pageSize: config.pageSize,
    now,
  };
  const gate = new AnswerGate();
  const arrivals = new Set<(request: ArrivingRequest) => void>();
  const admin = createAdmin({ account, log, faults, limiter, catalog, gate, arrivals });

  const handleApi = createApiHandler({
    keys: config.keys,
    latencyMs: config.latencyMs,
    rateHeaderPrefix: config.rateLimitHeaders === 'x' ? 'X-RateLimit' : 'RateLimit',
    endpoints: new Map(Object.entries(createEndpoints(catalog, createValidators(codec), codec))),
    account,
    log,
    faults,
    limiter,
    now,
    later: (ms, run) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    },
    holdIfHeld: (deliver) => gate.holdIfHeld(deliver),
    baseUrl: () => baseUrl,
  });

  const server = createServer((req, res) => {
    requestSeq += 1;
    const requestId = `req_${String(requestSeq).padStart(8, '0')}`;
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    if (!path.startsWith('/__admin/')) {
      const search = queryStart < 0 ? '' : url.slice(queryStart + 1);
      if (arrivals.size > 0) announce(arrivals, { seq: requestSeq, path, search });
      return handleApi({ req, res, seq: requestSeq, requestId, path, search });
    }
    handleAdmin(req, path, admin).then(
      (reply) => {
        const body = JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          'X-Request-Id': requestId,
          'Content-Type': JSON_TYPE,
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(body);
      },
      () => res.destroy(),
    );
  });

  baseUrl = await listen(server, config.port);

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    key: config.keys[0] ?? '',
    admin,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Ends keep-alive sockets and requests held by 'hang' faults.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Answers that fall due while held (admin.holdAnswers) wait here, in order, until released. */
class AnswerGate {
  private held: Array<() => void> | null = null;

  /** Holds every answer from now on; the function returned delivers them and lets answers flow. */
  hold(): () => void {
    this.held ??= [];
    return () => {
      const due = this.held ?? [];
      this.held = null;
      for (const deliver of due) deliver();
    };
  }

  /** Takes `deliver` when answers are held; false when they flow. */
  holdIfHeld(deliver: () => void): boolean {
    if (this.held === null) return false;
    this.held.push(deliver);
    return true;
  }
}

/** Tells each listener of admin.onRequest of a request that just arrived; a listener that throws is ignored. */
function announce(
  listeners: ReadonlySet<(request: ArrivingRequest) => void>,
  { seq, path, search }: { seq: number; path: string; search: string },
): void {
  const request: ArrivingRequest = {
    seq,
    endpoint: path.startsWith(API_PATH) ? path.slice(API_PATH.length) : path,
    query: Object.fromEntries(new URLSearchParams(search)),
  };
  for (const listener of [...listeners]) {
    try {
      listener(request);
    } catch {
      // The test's own listener: it must not break the answer.
    }
  }
}

const API_PATH = '/api/v2/';

interface SimulatorState {
  account: Account;
  log: RequestLog;
  faults: FaultBook;
  limiter: FixedWindowLimiter | null;
  catalog: Catalog;
  gate: AnswerGate;
  arrivals: Set<(request: ArrivingRequest) => void>;
}

/** What a test (or /__admin/) may see and change of a running simulator. */
function createAdmin(state: SimulatorState): SimulatorAdmin {
  const { account, log, faults, limiter, catalog, gate, arrivals } = state;
  const describe = describers(catalog);
  return {
    ledger: () => account.ledger(),
    chargesFor: (videoId) => account.chargesFor(videoId),
    requests: () => log.entries(),
    stats: () => log.stats(),
    credits: () => account.credits,
    topUp: (credits) => account.topUp(credits),
    setCredits: (credits) => account.setCredits(credits),
    setPlan: (state) => account.setPlan(state),
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    holdAnswers: () => gate.hold(),
    addUploads: (channel, count) => {
      const channelId = channel.startsWith('UC') ? channel : channelIdFromHandle(channel);
      catalog.uploads.add(channelId, count, catalog.now());
    },
    editPlaylist: (playlistId, edit) => {
      const id = parsePlaylistId(playlistId);
      if (id === null) throw new RangeError(`${playlistId} is not a playlist ID`);
      if (id.startsWith('UU')) throw new RangeError(`${id} lists its channel's uploads: add uploads instead`);
      const { exists } = describe.describePlaylist(id);
      if (!exists) throw new RangeError(`there is no playlist ${id}`);
      catalog.edits.edit(id, describe.describePlaylist(id).videoIds(), edit);
    },
    onRequest: (listener) => {
      arrivals.add(listener);
      return () => {
        arrivals.delete(listener);
      };
    },
    ...describe,
    reset: () => {
      catalog.uploads.clear();
      catalog.edits.clear();
      account.reset();
      log.clear();
      faults.clear();
      limiter?.clear();
    },
  };
}

/** Listens on 127.0.0.1 and gives the server's address. */
async function listen(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
