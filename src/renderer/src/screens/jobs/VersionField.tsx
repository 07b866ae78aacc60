import { useEffect, useState } from 'react';
import type { JobDetail } from '../../../../shared/contract';
import { Field } from '../../components/FormFields';
import { formatWhen } from '../../lib/format';
import { api } from '../../stores';

type Versions = JobDetail['versions'];

/** The job's released versions, read once when the dialog opens; empty until read. */
export function useReleasedVersions(jobId: number): Versions {
  const [versions, setVersions] = useState<Versions>([]);
  useEffect(() => {
    let current = true;
    api.jobDetail({ jobId }).then(
      (detail) => current && setVersions(detail.versions),
      // Without the list, the dialog offers the job as it is now, as before.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [jobId]);
  return versions;
}

/**
 * Which corpus to write: the job as it is now (a new version when anything changed), or a released
 * version again, byte for byte as it was released (exportJob's `version`). A version released before
 * Scriptorium kept what it is written from is listed, and cannot be chosen.
 */
export function VersionField({
  id,
  versions,
  value,
  onChange,
}: {
  id: string;
  versions: Versions;
  value: number | null;
  onChange(version: number | null): void;
}) {
  if (versions.length === 0) return null;
  return (
    <Field
      id={id}
      label="Version"
      help="A released version is written again byte for byte as it was released, with its own files and citation: the ZIP a citation of it names."
      problem={undefined}
    >
      {(describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={value === null ? '' : String(value)}
          onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
        >
          <option value="">The job as it is now (a new version if anything changed)</option>
          {versions.map(({ version, releasedAt, writable }) => (
            <option key={version} value={String(version)} disabled={!writable}>
              {`Version ${version}, released ${formatWhen(releasedAt)}`}
              {writable ? '' : ' (released before it could be written again)'}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
