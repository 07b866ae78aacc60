import type { JobSummary } from '../engine';
import { buildDifferences, ExportError, type ExportInput } from '../export';
import type { Database } from '../store';
import { changesOf } from '../store/queries/changes';
import { versionsOf } from '../store/queries/job-history';
import { releasedMembershipRowsOf, releasedRowsOf, releasedVersionOf } from '../store/queries/released-rows';
import { corpusVideos } from './corpus';
import { AppError } from './errors';
import { readRecordedInputs } from './version-inputs';

/**
 * The export's input for a released version of the job, written again byte for byte from what its
 * release kept (its inputs, its rows, its history; store/versions.ts), whatever the job did since:
 * the same export writes it (export/write-corpus.ts), from the same kind of rows, so no second
 * renderer can drift from the first. Refused with a plain message (invalid_input) when the version
 * does not exist, was released before its inputs were kept, or was written by a build that writes
 * other bytes (export/corpus-build.ts); and, as it is written, when what was kept does not give the
 * contents that were released.
 */
export function releasedCorpusInput(
  db: Database,
  job: JobSummary,
  version: number,
  path: string,
): ExportInput {
  const released = releasedVersionOf(db, job.id, version);
  const versions = versionsOf(db, job.id);
  if (released === undefined) {
    const have = versions.length === 0 ? 'no version yet' : `versions 1 to ${versions.length}`;
    throw new AppError(
      'invalid_input',
      `Job ${job.id} has no version ${version}: its corpus has ${have}. Nothing was written.`,
    );
  }
  const name = `Version ${version} of job ${job.id}`;
  const recorded = released.inputs === null ? undefined : readRecordedInputs(released.inputs);
  if (recorded === undefined || released.state === null) {
    throw new AppError(
      'invalid_input',
      `${name} was released by an earlier Scriptorium, which did not keep what it was written from: it cannot be written again. ` +
        'The ZIP released then is the one to cite; every version released from now on can be written again. Nothing was written.',
    );
  }
  const differences = buildDifferences(recorded.build);
  if (differences.length > 0) {
    throw new AppError(
      'invalid_input',
      `${name} was written by a Scriptorium that writes corpora otherwise (${differences.join('; ')}): this one cannot write it again byte for byte. ` +
        `Write it with Scriptorium ${recorded.input.manifest.tool.version}, or cite the ZIP released then. Nothing was written.`,
    );
  }
  const { state } = released;
  const through = versions.filter((record) => record.version <= version);
  return {
    ...recorded.input,
    videos: corpusVideos(job, () => releasedRowsOf(db, job.id, version)),
    memberships: () => releasedMembershipRowsOf(db, job.id, version),
    release: (contents) => {
      // What was kept gives the contents released, or the version is not written at all.
      if (released.contents === null || contents !== released.contents) {
        throw new ExportError(
          `${name} cannot be written again byte for byte: what was kept of it does not give the corpus that was released. ` +
            'Cite the ZIP released then.',
          path,
          { code: 'invalid_input' },
        );
      }
      return {
        version,
        versions: through,
        finishedAt: state.finishedAt,
        creditsSpent: state.creditsSpent,
        creditsPossible: state.creditsPossible,
        syncs: state.syncs,
        changes: () => changesOf(db, job.id, version),
      };
    },
  };
}
