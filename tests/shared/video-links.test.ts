import { describe, expect, it } from 'vitest';
import { indexRow } from '../../src/core/export/corpus/tables';
import { videoUrl, videoUrlAt } from '../../src/shared/video-links';

describe("a video's links (the Library's and a corpus's alike)", () => {
  it('opens the video, at a moment of it when one is given', () => {
    expect(videoUrl('dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(videoUrlAt('dQw4w9WgXcQ', 83.9)).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=83s');
    expect(videoUrlAt('dQw4w9WgXcQ', null)).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  });

  it('gives a URL even for an id with a lone surrogate, as the corpus writes it', () => {
    const id = 'a b&c\ud800';
    const encoded = 'https://www.youtube.com/watch?v=a%20b%26c%EF%BF%BD';
    expect(videoUrl(id)).toBe(encoded);
    expect(videoUrlAt(id, 12)).toBe(`${encoded}&t=12s`);
    const row = indexRow({ number: 1, videoId: id, title: '', source: 's', status: 'failed' }, undefined);
    expect(row).toContain(`,${encoded},`);
  });
});
