import type { Database } from '../store';
import { matchingRowids, SEGMENT_SLOTS } from '../store/queries/library';
import { captionAirtimes } from '../store/queries/library-context';
import { parsedQuery, transcriptSpans } from './library';
import type { LibraryContext } from './library-context';
import type { TranscriptFacts } from './library-facts';

/**
 * What a trend counts, video by video, before any date is looked at: for each group (a channel, a
 * job, a language, or the whole scope), each video of the scope with its airtime, and for each query
 * each matching video with its hits and the airtime of its matching captions. A caption two
 * transcripts of one video hold (bought again) counts once per group, in the first transcript of the
 * group that holds it, as a search counts it (core/app/library.ts).
 */

/** A group's videos: video number -> what is counted of it. */
export type VideoTally = Map<number, { hits: number; airtimeMs: number }>;

/** The groups a transcript of the scope belongs to (indices), none when it is out of the scope. */
export type GroupsOf = (transcriptId: number) => readonly number[];

/**
 * Every video of the scope in each group, with its airtime (hits: 0). Every group a transcript of
 * the scope is in is met here, in the order of the transcripts' ids.
 */
export function scopeTallies(
  db: Database,
  facts: TranscriptFacts,
  context: LibraryContext,
  groupsOf: GroupsOf,
): VideoTally[] {
  const tallies: VideoTally[] = [];
  const sharing: Array<{ transcriptId: number; groups: readonly number[] }> = [];
  for (let transcriptId = 1; transcriptId < facts.size; transcriptId++) {
    if (!facts.has(transcriptId)) continue;
    const groups = groupsOf(transcriptId);
    if (groups.length === 0) continue;
    const video = facts.videoOf(transcriptId);
    const shares = facts.sharesCaptions(transcriptId);
    if (shares) sharing.push({ transcriptId, groups });
    for (const group of groups) {
      const tally = (tallies[group] ??= new Map());
      const seen = tally.get(video) ?? { hits: 0, airtimeMs: 0 };
      if (!shares) seen.airtimeMs += context.airtimeOf(transcriptId);
      tally.set(video, seen);
    }
  }
  // Transcripts that share captions: each caption's airtime once per group.
  const airtimes = airtimesOf(
    db,
    sharing.map((each) => each.transcriptId),
  );
  const counted = new Set<string>();
  for (const { transcriptId, groups } of sharing) {
    const captions = airtimes.get(transcriptId) ?? new Uint32Array(0);
    const video = facts.videoOf(transcriptId);
    for (const group of groups) {
      const seen = tallies[group]?.get(video);
      if (seen === undefined) continue;
      captions.forEach((ms, segment) => {
        const key = `${group}:${captionKey(facts, transcriptId, segment)}`;
        if (counted.has(key)) return;
        counted.add(key);
        seen.airtimeMs += ms;
      });
    }
  }
  return tallies;
}

/**
 * Each group's matching videos for one query, with their hits (distinct captions) and, when
 * `withAirtime`, the airtime of those captions.
 */
export function matchTallies(
  db: Database,
  query: string,
  facts: TranscriptFacts,
  groupsOf: GroupsOf,
  groupCount: number,
  withAirtime: boolean,
): VideoTally[] {
  const rowids = matchingRowids(db, parsedQuery(query));
  const tallies = Array.from({ length: groupCount }, (): VideoTally => new Map());
  const counted = new Set<string>();
  const found: Array<{ transcriptId: number; group: number; segments: number[] }> = [];
  for (const { transcriptId, from, to } of transcriptSpans(rowids)) {
    // Indexed after the facts were read: not in the scope counted.
    if (!facts.has(transcriptId)) continue;
    const groups = groupsOf(transcriptId);
    if (groups.length === 0) continue;
    const shares = facts.sharesCaptions(transcriptId);
    for (const group of groups) {
      // Most transcripts share no caption: their hits are their matching segments, all of them.
      let segments: number[] | null = null;
      if (shares || withAirtime) {
        segments = [];
        for (let at = from; at < to; at++) {
          const segment = (rowids[at] ?? 0) - transcriptId * SEGMENT_SLOTS;
          if (shares) {
            const key = `${group}:${captionKey(facts, transcriptId, segment)}`;
            if (counted.has(key)) continue;
            counted.add(key);
          }
          segments.push(segment);
        }
      }
      const hits = segments === null ? to - from : segments.length;
      if (hits === 0) continue;
      const video = facts.videoOf(transcriptId);
      const tally = tallies[group];
      const seen = tally?.get(video) ?? { hits: 0, airtimeMs: 0 };
      seen.hits += hits;
      tally?.set(video, seen);
      if (withAirtime && segments !== null) found.push({ transcriptId, group, segments });
    }
  }
  if (withAirtime) {
    const airtimes = airtimesOf(db, [...new Set(found.map((each) => each.transcriptId))]);
    for (const { transcriptId, group, segments } of found) {
      const captions = airtimes.get(transcriptId);
      const seen = tallies[group]?.get(facts.videoOf(transcriptId));
      if (captions === undefined || seen === undefined) continue;
      for (const segment of segments) seen.airtimeMs += captions[segment] ?? 0;
    }
  }
  return tallies;
}

const airtimeCache = new WeakMap<Database, Map<number, Uint32Array>>();

/**
 * Each caption's airtime of these transcripts, kept per connection once read: a transcript's never
 * changes, and an airtime trend of a frequent word needs most of the library's (4 bytes a caption).
 */
function airtimesOf(db: Database, transcriptIds: readonly number[]): Map<number, Uint32Array> {
  let cache = airtimeCache.get(db);
  if (cache === undefined) {
    cache = new Map();
    airtimeCache.set(db, cache);
  }
  const missing = transcriptIds.filter((id) => !cache.has(id));
  for (const [id, airtimes] of captionAirtimes(db, missing)) cache.set(id, airtimes);
  return cache;
}

/** A caption as its first holder's rowid: the same number for every transcript that holds it. */
function captionKey(facts: TranscriptFacts, transcriptId: number, segment: number): number {
  return facts.captionOrigin(transcriptId, segment) * SEGMENT_SLOTS + segment;
}
