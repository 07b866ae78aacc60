import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
// Its modules named one by one, not through their folders' indexes: the thread loads only what it runs.
import { preparationFailure, PreparationLoop } from '../engine/prepare-transcripts';
import { PreparationRequest, type PreparationMessage } from '../engine/transcript-preparation';
import { openBackgroundDatabase, type Database } from '../store/database';
import { EXPORT_DERIVATION } from './derivation';

// The worker thread that prepares stored transcripts for search and export (core/engine's
// TranscriptPreparation starts it): an entry of its own in both builds, beside each face's bundle. It
// opens the database as a second connection of the app (the packaged app's better-sqlite3 through
// nativeBinding), prepares everything there is whenever told to, and says when it is done, or in one
// line what stopped it; told to stop, it ends after the batch under way.

// The fetch loop comes first. On Linux, where a thread has a priority of its own, this one yields a
// busy core to it (and to the rest of the machine) and prepares with what is left; elsewhere the
// call would lower the whole process, so it is not made (bench/RESULTS.md, issue 45).
if (process.platform === 'linux') {
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // A priority it may not set: it prepares as any thread does.
  }
}

const port = parentPort;
if (port === null) throw new Error('preparation-worker runs only as a worker thread');
const post = (message: PreparationMessage): void => port.postMessage(message);
const { databaseFile, nativeBinding } = z
  .object({ databaseFile: z.string(), nativeBinding: z.string().optional() })
  .parse(workerData);

let stopping = false;
let opened: { db: Database; loop: PreparationLoop } | undefined;
/** The spells, one after another. */
let spells: Promise<void> = Promise.resolve();

async function prepare(tell: boolean): Promise<PreparationMessage> {
  try {
    if (opened === undefined) {
      const db = openBackgroundDatabase(databaseFile, { nativeBinding });
      opened = { db, loop: new PreparationLoop(db, EXPORT_DERIVATION) };
    }
  } catch (error) {
    return { kind: 'stopped', ...preparationFailure(error) };
  }
  const outcome = await opened.loop.run({
    stopped: () => stopping,
    onBatch: () => post({ kind: 'batch' }),
    ...(tell && { onProgress: ({ done, total }) => post({ kind: 'progress', done, total }) }),
  });
  return outcome.ok ? { kind: 'prepared' } : { kind: 'stopped', ...outcome.failure };
}

port.on('message', (raw: unknown) => {
  const request = PreparationRequest.safeParse(raw);
  if (!request.success) return;
  const { data } = request;
  if (data.kind === 'prepare') {
    spells = spells.then(async () => post(stopping ? { kind: 'prepared' } : await prepare(data.tell)));
    return;
  }
  stopping = true;
  void spells.then(() => {
    opened?.db.close();
    port.close();
  });
});
