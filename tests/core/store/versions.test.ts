import { describe, expect, it } from 'vitest';
import { metadataChanges } from '../../../src/core/store/versions';

describe("what changes.csv says of a change of a corpus's metadata", () => {
  it('names each part that changed, before -> after, none when absent', () => {
    expect(
      metadataChanges(
        { title: '', authors: 'Ada Lovelace', license: 'CC-BY-4.0', formats: 'txt' },
        { title: 'Talks', authors: 'Ada Lovelace', license: '', formats: 'txt,json' },
      ),
    ).toEqual(['title: none -> Talks', 'license: CC-BY-4.0 -> none', 'formats: txt -> txt,json']);
  });

  it('puts a text of several lines on one line, and shows a long one by its beginning', () => {
    const long = 'word '.repeat(30).trim();
    expect(metadataChanges({ description: 'Why.\n\nHow.' }, { description: long })).toEqual([
      `description: "Why. How." -> "${long.slice(0, 60)}…"`,
    ]);
  });

  it('finds nothing to say of the same metadata, in whatever order its parts come', () => {
    expect(metadataChanges({ a: '1', b: '2' }, { b: '2', a: '1' })).toEqual([]);
  });
});
