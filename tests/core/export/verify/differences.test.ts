import { describe, expect, it } from 'vitest';
import { Differences, LISTED_PER_KIND } from '../../../../src/core/export/verify/differences';

describe('Differences', () => {
  it('lists the first of each kind and counts the rest, saying how many more', () => {
    const differences = new Differences();
    for (let i = 0; i < 25; i++) differences.add('missing file', `f${i}`);
    differences.add('counts', 'manifest.json says 3 videos, index.csv lists 2');
    expect(differences.count).toBe(26);
    expect(differences.lines()).toEqual([
      ...Array.from({ length: LISTED_PER_KIND }, (_, i) => `missing file: f${i}`),
      'counts: manifest.json says 3 videos, index.csv lists 2',
      'missing file: … and 15 more',
    ]);
  });

  it('works a detail out only while its kind is listed', () => {
    const differences = new Differences();
    let worked = 0;
    for (let i = 0; i < 1000; i++) differences.add('extra', () => `e${(worked += 1)}`);
    expect(worked).toBe(LISTED_PER_KIND);
    expect(differences.lines().at(-1)).toBe('extra: … and 990 more');
  });

  it('merges what another found as if added there, the cap included', () => {
    const differences = new Differences();
    differences.add('missing', 'a');
    const other = new Differences();
    for (let i = 0; i < 12; i++) other.add('missing', `b${i}`);
    other.add('counts', 'c');
    differences.merge(other);
    expect(differences.count).toBe(14);
    expect(differences.found('missing')).toBe(13);
    expect(differences.lines()).toEqual([
      'missing: a',
      ...Array.from({ length: 9 }, (_, i) => `missing: b${i}`),
      'counts: c',
      'missing: … and 3 more',
    ]);
  });
});
