import { describe, expect, it } from 'vitest';
import { datasetTitle } from '../../../../src/core/export/corpus/dataset-title';
import { channelTitleOf, requestedLanguageOf } from '../../../../src/core/export/corpus/json-records';
import type { ExportManifest, ExportVideo } from '../../../../src/core/export';
import { describeFilters } from '../../../../src/shared/filters';

// The smaller points of issue 19's finding 8, each where it is decided.

const manifestOf = (sources: string[]) => ({ sources }) as unknown as ExportManifest;

describe('the corpus title made from its sources', () => {
  it('names a list given by its address by its ID, never cut in the middle of the address', () => {
    const url = `https://www.youtube.com/playlist?list=PL${'x'.repeat(40)}&feature=shared&si=abcdefghijkl`;
    const title = datasetTitle({
      manifest: manifestOf([url, 'search:how bread rises in a cold kitchen over two whole days and nights']),
      sourceDetails: [
        { kind: 'playlist', label: `PL${'x'.repeat(40)}` },
        { kind: 'search', label: 'search: how bread rises in a cold kitchen over two whole days and nights' },
      ],
    });
    expect(title).toBe(
      `Video transcripts from PL${'x'.repeat(40)} and search: how bread rises in a cold kitchen over two whole…`,
    );
    expect(title).not.toContain('https://');
  });

  it('is the title the authors gave, when they gave one', () => {
    expect(
      datasetTitle({ manifest: manifestOf(['PLx']), citation: { title: '  Bread  talks ', authors: [] } }),
    ).toBe('Bread talks');
  });
});

describe('a video given by itself', () => {
  const single: ExportVideo = {
    number: 1,
    videoId: 'dQw4w9WgXcQ',
    title: 'T',
    source: 'dQw4w9WgXcQ',
    status: 'ok',
    metadata: { author_name: 'Rick Astley' },
    requestedLanguage: '',
  };

  it("takes its channel from the metadata's author, and names the original track orig", () => {
    expect(channelTitleOf(single)).toBe('Rick Astley');
    expect(requestedLanguageOf(single)).toBe('orig');
    expect(requestedLanguageOf({ ...single, requestedLanguage: 'de' })).toBe('de');
    // A list's own channel wins over the metadata.
    expect(channelTitleOf({ ...single, listing: { channelTitle: 'RickAstleyVEVO' } })).toBe('RickAstleyVEVO');
  });
});

describe('the filters in words', () => {
  it('says both ends of a date window are included', () => {
    expect(describeFilters({ publishedAfter: '2024-01-01', publishedBefore: '2024-12-31' })).toEqual([
      'published on or after 2024-01-01',
      'published on or before 2024-12-31',
    ]);
  });
});
