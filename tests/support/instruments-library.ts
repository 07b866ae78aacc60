import { join } from 'node:path';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { DATABASE_FILE, openDatabase } from '../../src/core/store';
import { storeTranscript } from '../../src/core/store/transcripts';
import type { ScriptoriumApi } from '../../src/shared/contract';
import { tempDir } from './cli';

/**
 * The library of the tests of trends, the concordance and distinctive words (issue 47), and the
 * reference that counts it apart from src/core, from the same raw data: exact dates, dates known to a
 * few days, a month or a year, a video two listings date differently (one exactly) and one they
 * date in contradiction, undated videos, three channels and a channel only the metadata names,
 * English, French and Japanese, a transcript without times, a video bought again whole and one
 * bought again with a caption changed. The reference's every bound is found by trying every way the
 * uncertain videos' dates could fall, not by the rule the app applies.
 */

export type Seg = [text: string, start: number | null, duration: number | null];

export interface Bought {
  job: 1 | 2 | 3;
  language: string;
  sendMetadata?: boolean;
  segments: Seg[];
}

export interface VideoFixture {
  id: string;
  /** What list pages named as its channel; null for a video given alone. */
  channel: string | null;
  /** The metadata's author (the channel of a video no list named). */
  author: string;
  /** Per job that lists it: the published text and when the page was read (null: given alone). */
  listings: Array<{ job: 1 | 2 | 3; published: string | null; listedAt: string }>;
  bought: Bought[];
}

export const T = (text: string, start: number | null = null, duration: number | null = null): Seg => [
  text,
  start,
  duration,
];

export const VIDEOS: VideoFixture[] = [
  {
    id: 'vid01aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [
      { job: 1, published: '2023-01-15', listedAt: '2023-06-01T00:00:00Z' },
      { job: 3, published: null, listedAt: '2023-06-01T00:00:00Z' },
    ],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [
          T('the quiet river runs', 0, 4),
          T('a lake of light', 4, 3),
          T('', 7, 1),
          T('river and sea', 8, 5),
        ],
      },
      {
        job: 3,
        language: 'en',
        sendMetadata: false,
        segments: [
          T('the quiet river runs', 0, 4),
          T('a lake of light', 4, 3),
          T('', 7, 1),
          T('river and sea', 8, 5),
        ],
      },
    ],
  },
  {
    id: 'vid02aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '3 days ago', listedAt: '2023-01-20T08:00:00Z' }],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [T('nothing here at all', 0, 3), T('the river bends', 2, 4), T('slow water', 6, 2)],
      },
    ],
  },
  {
    id: 'vid03aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [
      { job: 1, published: '1 month ago', listedAt: '2023-04-10T12:00:00Z' },
      { job: 2, published: '2023-02-20', listedAt: '2023-04-11T00:00:00Z' },
    ],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [
          T('lake water is calm', 0, 3),
          T('a quiet river joins the lake', 3, 3),
          T('sea birds', 6, 2),
        ],
      },
      {
        job: 2,
        language: 'en',
        sendMetadata: false,
        segments: [
          T('lake water is calm', 0, 3),
          T('a quiet river joins the lake', 3, 3),
          T('sea birds and river', 6, 2),
        ],
      },
    ],
  },
  {
    id: 'vid04aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [{ job: 1, published: '2 weeks ago', listedAt: '2023-03-20T00:00:00Z' }],
    bought: [{ job: 1, language: 'en', segments: [T('river river river', 0, 2), T('lake', 2, 2)] }],
  },
  {
    id: 'vid05aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '2023-03-01T10:00:00Z', listedAt: '2023-04-01T00:00:00Z' }],
    bought: [{ job: 2, language: 'en', segments: [T('the sea is loud', 0, 5), T('no river today', 5, 5)] }],
  },
  {
    id: 'vid06aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '1 year ago', listedAt: '2024-02-15T00:00:00Z' }],
    bought: [
      {
        job: 2,
        language: 'fr',
        segments: [T('la rivière est calme', 0, 3), T('le café près de la mer', 3, 3)],
      },
    ],
  },
  {
    id: 'vid07aaaaaa',
    channel: null,
    author: 'Solo Author',
    listings: [{ job: 3, published: null, listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 3, language: 'en', segments: [T('a river without a date', 0, 3), T('lake', 3, 1)] }],
  },
  {
    id: 'vid08aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '2023-02-10', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 1, language: 'ja', segments: [T('静かな川の音', 0, 3), T('海と川', 3, 3)] }],
  },
  {
    id: 'vid09aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [
      { job: 3, published: '2 years ago', listedAt: '2023-01-01T00:00:00Z' },
      { job: 1, published: '2023-01-25', listedAt: '2023-06-01T00:00:00Z' },
    ],
    bought: [{ job: 1, language: 'en', segments: [T('the lake and the sea', 0, 4)] }],
  },
  {
    id: 'vid10aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '2023-03-15', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 2, language: 'en', segments: [T('river talk without times'), T('sea again')] }],
  },
  {
    id: 'vid11aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '2023-02-02', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 1, language: 'en', segments: [T('mountains and snow', 0, 6), T('snow falls', 6, 6)] }],
  },
  {
    id: 'vid12aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [{ job: 1, published: '2 weeks ago', listedAt: '2023-03-20T00:00:00Z' }],
    bought: [{ job: 1, language: 'fr', segments: [T('le lac est calme', 0, 3), T('rivière', 3, 1)] }],
  },
];

export interface Transcript {
  order: number;
  video: VideoFixture;
  bought: Bought;
}

/** Every transcript in the order it is stored (its id's order). */
export const TRANSCRIPTS: Transcript[] = VIDEOS.flatMap((video) =>
  video.bought.map((bought) => ({ video, bought })),
).map((t, order) => ({ ...t, order }));

/** The transcript a job's item of the video holds: the one bought in that job, else the first bought. */
export const itemTranscript = (video: VideoFixture, job: 1 | 2 | 3): Bought | undefined =>
  video.bought.find((b) => b.job === job) ?? video.bought[0];

/** The library stored as a fetch stores it, dated as list pages date it, and indexed as the app does. */
export async function storeInstrumentsLibrary(): Promise<{
  dataDir: string;
  app: ScriptoriumApp;
  api: ScriptoriumApi;
  jobIds: Record<1 | 2 | 3, number>;
}> {
  const jobIds: Record<1 | 2 | 3, number> = { 1: 0, 2: 0, 3: 0 };
  const dataDir = tempDir();
  const first = openApp({ dataDir, keys: memoryKeyStore() });
  const firstApi = localApi(first);
  for (const job of [1, 2, 3] as const) {
    const ids = VIDEOS.filter((v) => v.listings.some((l) => l.job === job)).map((v) => v.id);
    const { job: made } = await firstApi.createJob({
      draft: {
        sources: ids.map((id, i) => ({ where: `line ${i + 1}`, text: id })),
        languages: 'en',
        includeTimestamp: true,
        sendMetadata: true,
        maxVideos: null,
        budget: null,
        concurrency: 4,
        formats: ['txt'],
        name: `Job of fixture ${job}`,
      },
      start: false,
    });
    jobIds[job] = made.id;
  }
  await first.close();
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const transcriptIds = new Map<Transcript, number>();
  for (const t of TRANSCRIPTS) {
    const timed = t.bought.segments.every(([, start]) => start !== null);
    const metadata =
      t.bought.sendMetadata === false ? {} : { metadata: { title: t.video.id, author_name: t.video.author } };
    const id = storeTranscript(db, {
      videoId: t.video.id,
      requestedLang: t.bought.language,
      includeTimestamp: timed,
      sendMetadata: t.bought.sendMetadata !== false,
      language: t.bought.language,
      title: t.video.id,
      segmentCount: t.bought.segments.length,
      body: JSON.stringify({
        video_id: t.video.id,
        language: t.bought.language,
        transcript: t.bought.segments.map(([text, start, duration]) =>
          timed ? { text, start, duration } : { text },
        ),
        ...metadata,
      }),
      fetchedAt: '2024-03-01T00:00:00.000Z',
    });
    transcriptIds.set(t, id);
  }
  // The items a list page would have given, dated as the fixture says (a new job's own are replaced).
  db.exec('DELETE FROM memberships; DELETE FROM items;');
  const item = db.prepare(
    `INSERT INTO items (job_id, source_id, position, number, video_id, title, status, transcript_id, channel_title,
                        published, listed_at, updated_at)
     VALUES (?, (SELECT id FROM sources WHERE job_id = ? AND source_id = ?), ?, ?, ?, ?, 'ok', ?, ?, ?, ?, 't')`,
  );
  for (const video of VIDEOS)
    for (const listing of video.listings) {
      const job = jobIds[listing.job];
      const bought = TRANSCRIPTS.find((t) => t.bought === itemTranscript(video, listing.job));
      const position = VIDEOS.indexOf(video) + 1;
      item.run(
        job,
        job,
        video.id,
        position,
        position,
        video.id,
        video.id,
        bought === undefined ? null : transcriptIds.get(bought),
        video.channel,
        listing.published,
        listing.listedAt,
      );
    }
  db.close();
  const app = openApp({ dataDir, keys: memoryKeyStore() });
  await app.libraryIndexed;
  return { dataDir, app, api: localApi(app), jobIds };
}
