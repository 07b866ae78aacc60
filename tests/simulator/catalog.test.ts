import { describe, expect, test } from 'vitest';
import { channelIdForHandle, describePlaylist, describeVideo } from '../../src/simulator';
import { transcriptSegments, videoFacts } from '../../src/simulator/videos';

const ids = (count: number, prefix = 'cat'): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(11 - prefix.length, '0')}`);

describe('videos', () => {
  test('about 5% of videos have no captions, and every ID starting with "nocap" has none', () => {
    const share = ids(2000).filter((id) => !describeVideo(id).hasCaptions).length / 2000;
    expect(share).toBeGreaterThan(0.02);
    expect(share).toBeLessThan(0.09);
    expect(describeVideo('NoCap123456')).toMatchObject({ exists: true, hasCaptions: false, languages: [] });
  });

  test('a captioned video has an original track from the six, 1-3 other tracks and 5-80 segments', () => {
    for (const id of ids(300).filter((id) => describeVideo(id).hasCaptions)) {
      const facts = describeVideo(id);
      expect(['en', 'es', 'de', 'fr', 'ja', 'pt']).toContain(facts.original);
      expect(facts.languages[0]).toBe(facts.original);
      expect(facts.languages.length).toBeGreaterThanOrEqual(2);
      expect(facts.languages.length).toBeLessThanOrEqual(4);
      expect(new Set(facts.languages).size).toBe(facts.languages.length);
      expect(facts.segments).toBeGreaterThanOrEqual(5);
      expect(facts.segments).toBeLessThanOrEqual(80);
    }
  });

  test('the catalog depends on the seed', () => {
    const titles = (seed: number) => ids(20).map((id) => describeVideo(id, seed).title);
    expect(titles(1)).toEqual(titles(1));
    expect(titles(2)).not.toEqual(titles(1));
  });

  test('timings are awkward the way real captions are: decimals and integers, overlaps, zero lengths, past one hour', () => {
    const segments = ids(400)
      .map((id) => videoFacts(id, 1))
      .filter((facts) => facts.hasCaptions)
      .map((facts) => transcriptSegments(facts, facts.original, 1));
    const all = segments.flat();
    expect(all.some((s) => !Number.isInteger(s.start))).toBe(true);
    expect(all.some((s) => Number.isInteger(s.start) && s.start > 0)).toBe(true);
    expect(all.some((s) => s.duration === 0)).toBe(true);
    expect(all.some((s) => s.start > 3600)).toBe(true);
    // Seconds with at most two decimals, as the hosted service sends them.
    const twoDecimals = /^\d+(\.\d{1,2})?$/;
    expect(all.every((s) => twoDecimals.test(`${s.start}`) && twoDecimals.test(`${s.duration}`))).toBe(true);
    const overlaps = segments.some((track) =>
      track.some((s, i) => {
        const previous = track[i - 1];
        return previous !== undefined && previous.start + previous.duration > s.start;
      }),
    );
    expect(overlaps).toBe(true);
    for (const track of segments) {
      expect(track.map((s) => s.start)).toEqual([...track.map((s) => s.start)].sort((a, b) => a - b));
    }
  });

  test('titles and texts regularly carry characters that break naive exporters', () => {
    const videos = ids(600).map((id) => videoFacts(id, 1));
    const titles = videos.map((facts) => facts.title);
    const texts = videos
      .filter((facts) => facts.hasCaptions)
      .flatMap((facts) => transcriptSegments(facts, facts.original, 1).map((s) => s.text));
    const everything = [...titles, ...texts].join('\u0000');
    for (const awkward of ['"', ',', '\n', '🎬', '-->', '<b>', '&', '../', '\\']) {
      expect(everything, JSON.stringify(awkward)).toContain(awkward);
    }
    expect(titles.some((title) => title.length === 300)).toBe(true);
  });
});

describe('playlists and channels', () => {
  test('describePlaylist: _n<digits> fixes the size, "missing" and bad prefixes do not exist, others get 1-250', () => {
    expect(describePlaylist('PLsizedByItsId_n42').size).toBe(42);
    expect(describePlaylist('OLempty_n0')).toMatchObject({ exists: true, size: 0 });
    expect(describePlaylist('PLmissing').exists).toBe(false);
    expect(describePlaylist('XXnot_a_playlist').exists).toBe(false);
    const sizes = ['PLa', 'PLb', 'LLc', 'FLd', 'PLe'].map((id) => describePlaylist(id).size);
    expect(sizes.every((size) => size >= 1 && size <= 250)).toBe(true);
    const videoIds = describePlaylist('PLsizedByItsId_n42').videoIds();
    expect(videoIds).toHaveLength(42);
    expect(videoIds.every((id) => /^[A-Za-z0-9_-]{11}$/.test(id))).toBe(true);
  });

  test('channelIdForHandle is a UC id, the same with or without @ and in any case, different per handle', () => {
    const id = channelIdForHandle('@Some.Handle');
    expect(id).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    expect(channelIdForHandle('some.handle')).toBe(id);
    expect(channelIdForHandle('@other.handle')).not.toBe(id);
  });

  test("a UU playlist's size is its channel's upload count", () => {
    expect(describePlaylist(`UU${channelIdForHandle('@sized_n77').slice(2)}`).size).toBe(77);
  });

  test('playlists of one pool (PLpool<name>_from<K>_n<N>) share the videos their ranges share, in order', () => {
    const first = describePlaylist('PLpoolShared_from1_n10').videoIds();
    const second = describePlaylist('PLpoolShared_from6_n10').videoIds();
    const other = describePlaylist('PLpoolElsewhere_from6_n10').videoIds();
    expect(first).toHaveLength(10);
    expect(new Set([...first, ...second]).size).toBe(15);
    expect(second.slice(0, 5)).toEqual(first.slice(5));
    expect(other.some((id) => first.includes(id) || second.includes(id))).toBe(false);
  });
});
