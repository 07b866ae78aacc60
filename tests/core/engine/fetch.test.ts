import { afterEach, describe, expect, it } from 'vitest';
import { describePlaylist, describeVideo } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';
import { exportRowsOf, membershipRowsOf } from '../../../src/core/store/queries/export-rows';

let h: Harness;
afterEach(async () => h.close());

function transcriptRequestsFor(videoId: string): number {
  return h.sim.admin.requests().filter((r) => r.path.endsWith('/transcript') && r.query.video_url === videoId)
    .length;
}

describe('fetching transcripts', () => {
  it('fetches a video listed by two sources of one job once', async () => {
    h = await startHarness({ credits: 1000 });
    const ids = describePlaylist('PLdedupes_n6').videoIds();
    const shared = ids.find((id) => describeVideo(id).hasCaptions)!;
    const { job } = h.engine.findOrCreateJob(spec(['PLdedupes_n6', shared]));
    await h.engine.run(job.id);

    expect(h.engine.job(job.id)!.counts.total).toBe(6);
    expect(h.sim.admin.chargesFor(shared)).toBe(1);
    expect(transcriptRequestsFor(shared)).toBe(1);
    // The video takes its list data from the list that holds it, never from the bare-video source,
    // and keeps both memberships: its place in the playlist and its being given by itself.
    const rows = [...exportRowsOf(h.db, job.id)];
    const row = rows.find((candidate) => candidate.videoId === shared)!;
    expect(row).toMatchObject({
      sourceKind: 'playlist',
      position: ids.indexOf(shared) + 1,
      memberOf: [0, 1],
    });
    expect(row.listing.channelTitle).toEqual(expect.any(String));
    expect(row.listing.durationSeconds).toEqual(expect.any(Number));
    expect(row.listedAt).toEqual(expect.any(String));
    expect(
      [...membershipRowsOf(h.db, job.id)]
        .filter((membership) => membership.videoId === shared)
        .map(({ source, position }) => ({ source, position })),
    ).toEqual([
      { source: 'PLdedupes_n6', position: ids.indexOf(shared) + 1 },
      { source: shared, position: null },
    ]);
  });

  it('never buys a transcript another job already stored: the second job pays only its pages', async () => {
    h = await startHarness({ credits: 1000 });
    const first = h.engine.findOrCreateJob(spec(['PLsharing_n8'])).job;
    await h.engine.run(first.id);
    const spentBefore = h.sim.admin.ledger().length;

    // Same videos, another identity (maxVideos), so another job.
    const { job: second, created } = h.engine.findOrCreateJob(spec(['PLsharing_n8'], { maxVideos: 50 }));
    expect(created).toBe(true);
    expect(h.engine.estimate(second.id)).toEqual({ pages: 1, transcripts: 0, exact: false });
    const outcome = await h.engine.run(second.id);

    expect(outcome.status).toBe('completed');
    expect(
      h.sim.admin
        .ledger()
        .slice(spentBefore)
        .map((c) => c.endpoint),
    ).toEqual(['playlist/videos']);
    expect(h.engine.job(second.id)!.counts).toEqual(h.engine.job(first.id)!.counts);
    expect(h.ledger.status().byJob).toEqual({ [first.id]: spentBefore, [second.id]: 1 });
  });

  it('tries the preferred languages in order: 404s are free and the right track is stored', async () => {
    h = await startHarness({ credits: 1000 });
    const ids = describePlaylist('PLlanguages_n30')
      .videoIds()
      .filter((id) => describeVideo(id).hasCaptions);
    const { job } = h.engine.findOrCreateJob(spec(['PLlanguages_n30'], { langs: ['es', 'en', 'orig'] }));
    await h.engine.run(job.id);

    const rows = new Map([...exportRowsOf(h.db, job.id)].map((row) => [row.videoId, row]));
    const expected = (id: string): { requested: string; language: string } => {
      const { languages, original } = describeVideo(id);
      if (languages.includes('es')) return { requested: 'es', language: 'es' };
      if (languages.includes('en')) return { requested: 'en', language: 'en' };
      return { requested: '', language: original };
    };
    const kinds = new Set<string>();
    for (const id of ids) {
      const row = rows.get(id)!;
      expect(row.status).toBe('ok');
      expect({ requested: row.transcript!.requestedLang, language: row.transcript!.language }).toEqual(
        expected(id),
      );
      expect(JSON.parse(row.transcript!.body)).toMatchObject({
        video_id: id,
        language: expected(id).language,
      });
      expect(h.sim.admin.chargesFor(id)).toBe(1);
      kinds.add(expected(id).requested);
    }
    expect(kinds).toEqual(new Set(['es', 'en', ''])); // the playlist exercises all three branches
    expect(h.engine.job(job.id)!.creditsSpent).toBe(1 + ids.length);
  });

  it('stores the body as received with its title, and counts segments', async () => {
    h = await startHarness({ credits: 1000 });
    const id = 'dQw4w9WgXcQ';
    const { job } = h.engine.findOrCreateJob(spec([id]));
    await h.engine.run(job.id);

    const [row] = [...exportRowsOf(h.db, job.id)];
    const facts = describeVideo(id);
    expect(row).toMatchObject({
      videoId: id,
      title: facts.title,
      status: 'ok',
      position: 1,
      sourceKind: 'video',
    });
    expect(row!.transcript).toMatchObject({ language: facts.original, segmentCount: facts.segments });
    expect(JSON.parse(row!.transcript!.body).metadata.title).toBe(facts.title);
  });
});
