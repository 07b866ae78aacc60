/**
 * The admin API over HTTP under /__admin/ (no auth; loopback only), for driving a simulator that runs
 * in another process, such as `scriptorium sim`.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { faultRuleSchema } from './faults';
import type { SimulatorAdmin } from './index';

export interface AdminReply {
  status: number;
  body: unknown;
}

const MAX_BODY_BYTES = 64 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const topUpSchema = z.object({ credits: z.number().int().min(0) });
const planSchema = z.object({ state: z.enum(['grant', 'paid', 'paused']) });
const uploadsSchema = z.object({ channel: z.string().min(1), count: z.number().int().min(1).max(100_000) });
const playlistEditSchema = z.object({
  playlist: z.string().min(1),
  edit: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('append'), count: z.number().int().min(1).max(100_000) }),
    z.object({ kind: z.literal('remove'), position: z.number().int().min(1) }),
    z.object({ kind: z.literal('move'), from: z.number().int().min(1), to: z.number().int().min(1) }),
  ]),
});

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? {} : JSON.parse(text);
}

const ok = (body: unknown = { ok: true }): AdminReply => ({ status: 200, body });
const bad = (message: string): AdminReply => ({ status: 400, body: { error: message } });

/** Parses the body with `schema`, then runs `apply`; a bad body is a 400 with the reason. */
async function withBody<T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
  apply: (value: T) => AdminReply,
): Promise<AdminReply> {
  let json: unknown;
  try {
    json = await readJson(req);
  } catch {
    return bad('the body must be JSON (at most 64 KiB)');
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? apply(parsed.data) : bad(z.prettifyError(parsed.error));
}

/** Answers one /__admin/ request. */
export async function handleAdmin(
  req: IncomingMessage,
  path: string,
  admin: SimulatorAdmin,
): Promise<AdminReply> {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return { status: 403, body: { error: 'loopback only' } };
  const route = `${req.method ?? ''} ${path}`;
  switch (route) {
    case 'GET /__admin/ledger':
      return ok(admin.ledger());
    case 'GET /__admin/requests':
      return ok(admin.requests());
    case 'GET /__admin/stats':
      return ok(admin.stats());
    case 'GET /__admin/credits':
      return ok({ credits: admin.credits() });
    case 'POST /__admin/topup':
      return withBody(req, topUpSchema, ({ credits }) => {
        admin.topUp(credits);
        return ok({ credits: admin.credits() });
      });
    case 'POST /__admin/credits':
      return withBody(req, topUpSchema, ({ credits }) => {
        admin.setCredits(credits);
        return ok({ credits: admin.credits() });
      });
    case 'POST /__admin/plan':
      return withBody(req, planSchema, ({ state }) => {
        admin.setPlan(state);
        return ok({ state });
      });
    case 'POST /__admin/uploads':
      return withBody(req, uploadsSchema, ({ channel, count }) => {
        admin.addUploads(channel, count);
        return ok();
      });
    case 'POST /__admin/playlists':
      return withBody(req, playlistEditSchema, ({ playlist, edit }) => {
        try {
          admin.editPlaylist(playlist, edit);
        } catch (error) {
          return bad(error instanceof Error ? error.message : String(error));
        }
        return ok();
      });
    case 'POST /__admin/faults':
      return withBody(req, faultRuleSchema, (rule) => {
        admin.addFault(rule);
        return ok();
      });
    case 'DELETE /__admin/faults':
      admin.clearFaults();
      return ok();
    case 'POST /__admin/reset':
      admin.reset();
      return ok();
    default:
      return { status: 404, body: { error: `no admin route ${route}` } };
  }
}
