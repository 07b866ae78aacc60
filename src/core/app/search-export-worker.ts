import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../store';
import { toAppError } from './errors';
import { writeSearchExport } from './search-export';
import { WorkerInput, type WorkerMessage } from './search-export-thread';

// The worker thread that writes one Export results (search-export-thread.ts starts it): an entry of
// its own in both builds, beside each face's bundle. It opens the database read-only, as the app
// opens it (the packaged app's better-sqlite3 through nativeBinding), writes the CSV into the file
// it is given and says so; the app renames it into place. It ends by itself when done.

const port = parentPort;
if (port === null) throw new Error('search-export-worker runs only as a worker thread');
const post = (message: WorkerMessage): void => port.postMessage(message);

try {
  const input = WorkerInput.parse(workerData);
  const db = openReadOnlyDatabase(input.databaseFile, { nativeBinding: input.nativeBinding });
  try {
    const written = await writeSearchExport(db, input.request, input.file, {
      onProgress: ({ done, total }) => post({ kind: 'progress', done, total }),
    });
    post({ kind: 'written', ...written });
  } finally {
    db.close();
  }
} catch (error) {
  post({ kind: 'refused', ...toAppError(error).toData() });
}
