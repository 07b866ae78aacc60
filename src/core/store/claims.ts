import type { Database } from './database';
import { preparedFor } from './prepared';
import type { TranscriptKey } from './transcripts';

/** Who is buying a transcript right now, and until when (ms since the epoch). */
export interface Claim {
  owner: string;
  expiresAt: number;
}

type KeyParams = [string, string, number, number];

const statements = preparedFor((db) => ({
  get: db.prepare<KeyParams, { owner: string; expires_at: number }>(
    `SELECT owner, expires_at FROM transcript_claims
     WHERE video_id = ? AND requested_lang = ? AND include_timestamp = ? AND send_metadata = ?`,
  ),
  write: db.prepare<[...KeyParams, string, number]>(
    `INSERT INTO transcript_claims (video_id, requested_lang, include_timestamp, send_metadata, owner, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (video_id, requested_lang, include_timestamp, send_metadata)
     DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
  ),
  release: db.prepare<[...KeyParams, string]>(
    `DELETE FROM transcript_claims
     WHERE video_id = ? AND requested_lang = ? AND include_timestamp = ? AND send_metadata = ? AND owner = ?`,
  ),
  releaseAllOf: db.prepare<[string]>('DELETE FROM transcript_claims WHERE owner = ?'),
}));

function keyParams(key: TranscriptKey): KeyParams {
  return [key.videoId, key.requestedLang, Number(key.includeTimestamp), Number(key.sendMetadata)];
}

export function claimOf(db: Database, key: TranscriptKey): Claim | undefined {
  const row = statements(db).get.get(...keyParams(key));
  return row === undefined ? undefined : { owner: row.owner, expiresAt: row.expires_at };
}

/** Gives the claim to `claim.owner`, whoever held it; the caller has checked that it may. */
export function writeClaim(db: Database, key: TranscriptKey, claim: Claim): void {
  statements(db).write.run(...keyParams(key), claim.owner, claim.expiresAt);
}

/** Frees the claim if `owner` still holds it. */
export function releaseClaim(db: Database, key: TranscriptKey, owner: string): void {
  statements(db).release.run(...keyParams(key), owner);
}

/** Frees every claim of one owner (a run that ends). */
export function releaseClaimsOf(db: Database, owner: string): void {
  statements(db).releaseAllOf.run(owner);
}
