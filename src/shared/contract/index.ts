import { z } from 'zod';
import type { CommandName, EventName } from '../channels';
import { combineDomains } from '../combine-domains';
import { AppErrorSchema } from '../errors';
import { analysisCommands } from './analysis';
import { creditCommands } from './credits';
import type { events } from './events';
import { exportCommands } from './exports';
import { jobCommands } from './jobs';
import { keepCurrentCommands } from './keep-current';
import { libraryCommands } from './library';
import { runCommands } from './runs';
import { settingsCommands } from './settings';
import { updateCommands } from './updates';

export { commandNames, eventNames, ipcChannel } from '../channels';
export type { CommandName, EventName } from '../channels';
export { EXPORT_FORMATS } from '../vocabulary';
export type {
  ExportFormat,
  ItemStatus as VideoStatus,
  JobStatus,
  ListStatus,
  PauseReason,
  StopReason,
  VideoFilter,
} from '../vocabulary';
export * from './values';
export * from './jobs';
export * from './runs';
export * from './keep-current';
export * from './exports';
export * from './library';
export * from './analysis';
export * from './settings';
export * from './credits';
export * from './updates';
export { events } from './events';

/**
 * The app contract: every command a face may send and every event it may receive, with their
 * schemas. Electron IPC (main/preload), browser mode (web) and the CLI are transports of this one
 * object. Each domain's commands live in a file of their own (jobs.ts, runs.ts, keep-current.ts,
 * exports.ts, library.ts, analysis.ts, settings.ts, credits.ts, updates.ts), as core/app/handlers/ serves them; adding a
 * command means one name in channels.ts, one entry in its domain's file here and one handler in the
 * same domain's file of core/app/handlers.
 */
export const commands = combineDomains(
  'the contract',
  jobCommands,
  runCommands,
  keepCurrentCommands,
  exportCommands,
  libraryCommands,
  analysisCommands,
  settingsCommands,
  creditCommands,
  updateCommands,
) satisfies { [N in CommandName]: { input: z.ZodType; output: z.ZodType } };

export type CommandInput<N extends CommandName> = z.input<(typeof commands)[N]['input']>;
export type CommandOutput<N extends CommandName> = z.infer<(typeof commands)[N]['output']>;
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/**
 * What a command answers on every transport: its output, or the typed error of src/shared/errors.ts
 * (errors never travel as bare text).
 */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof AppErrorSchema> };

/** An answer as it arrives over a transport, before the face reads its value. */
export const AnswerSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: AppErrorSchema }),
]);

/**
 * What the Electron preload exposes: one function per command that resolves with the answer
 * envelope (errors thrown across contextBridge would lose their code), and event subscription.
 */
export type ScriptoriumBridge = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<Answer<CommandOutput<N>>>;
} & {
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void;
};

/** What every face gets: one typed function per command, and event subscription. */
export type ScriptoriumApi = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>>;
} & {
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void;
};
