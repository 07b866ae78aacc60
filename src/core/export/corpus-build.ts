import { WORD_COUNT_METHOD } from './corpus/plain-text';
import { CORPUS_VERSION } from './reuse/corpus-fingerprint';
import { RENDERING_VERSION } from './reuse/entry-fingerprints';

/**
 * What writes a corpus's bytes besides its inputs: how its entries are laid out and rendered
 * (CORPUS_VERSION, RENDERING_VERSION), the zlib that compresses them and the ICU that counts their
 * words. Two builds that agree on all four write the same bytes for the same inputs; a version kept to
 * be written again (core/app/released-corpus.ts) is written again only by a build that agrees.
 */
export interface CorpusBuild {
  corpusVersion: number;
  renderingVersion: number;
  zlib: string;
  icu: string | null;
}

/** This build's. */
export function corpusBuild(): CorpusBuild {
  return {
    corpusVersion: CORPUS_VERSION,
    renderingVersion: RENDERING_VERSION,
    zlib: process.versions.zlib,
    icu: WORD_COUNT_METHOD.icu,
  };
}

/** How `recorded` differs from this build, in words ("corpus format 3, here 4"); none when it does not. */
export function buildDifferences(recorded: CorpusBuild): string[] {
  const here = corpusBuild();
  const parts: Array<[string, string | number | null, string | number | null]> = [
    ['corpus format', recorded.corpusVersion, here.corpusVersion],
    ['rendering of transcripts', recorded.renderingVersion, here.renderingVersion],
    ['zlib', recorded.zlib, here.zlib],
    ['ICU (word counts)', recorded.icu, here.icu],
  ];
  return parts
    .filter(([, then, now]) => then !== now)
    .map(([name, then, now]) => `${name} ${then ?? 'none'}, here ${now ?? 'none'}`);
}
