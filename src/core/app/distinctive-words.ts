import stopwordsByLanguage from 'stopwords-iso/stopwords-iso.json';
import { plainLine } from '../../shared/caption-text';
import type { DistinctiveWords, DistinctiveWordsRequest } from '../../shared/contract';
import { parsePeriod, periodOf } from '../../shared/periods';
import { foldText, textTokens } from '../../shared/search-text';
import type { Database } from '../store';
import { libraryTranscript, SEGMENT_SLOTS } from '../store/queries/library';
import { matchingTranscriptIds, narrowingOf, readBody } from './library';
import { libraryContext, type LibraryContext } from './library-context';
import { transcriptFacts, type TranscriptFacts } from './library-facts';
import { AppError } from './errors';

/**
 * Distinctive words (docs/product.md, "Distinctive words"): the words a target (the transcripts a
 * query matches, the videos published in a period, a channel's, or where these meet) uses more than
 * the rest of the scope, ranked by Dunning's log-likelihood (G²), as AntConc's and CQPweb's keyword
 * lists rank them. Words are the index's tokens (shared/search-text.ts: folded; Japanese, Chinese
 * and Korean as pairs of characters), each caption counted once (a video bought again adds nothing),
 * without the stop words of the scope's languages (stopwords-iso) and tokens without a letter.
 */

/** Which side of the comparison a transcript is on; 'neither' when it may be in the period or not. */
type Side = 'target' | 'reference' | 'neither';

export function distinctiveWords(db: Database, request: DistinctiveWordsRequest): DistinctiveWords {
  const facts = transcriptFacts(db);
  const context = libraryContext(db, facts);
  const sideOf = sides(db, request, facts, context);
  const counts = { target: new Map<string, number>(), reference: new Map<string, number>() };
  const sizes = {
    target: { transcripts: 0, videos: new Set<number>(), words: 0 },
    reference: { transcripts: 0, videos: new Set<number>(), words: 0 },
  };
  const languages = new Set<string>();
  const counted = new Set<number>();
  for (let transcriptId = 1; transcriptId < facts.size; transcriptId++) {
    if (!facts.has(transcriptId)) continue;
    const side = sideOf(transcriptId);
    if (side === 'neither') continue;
    const transcript = libraryTranscript(db, transcriptId);
    if (transcript === undefined) continue;
    languages.add(facts.languageOf(transcriptId).split('-')[0] ?? '');
    const size = sizes[side];
    size.transcripts++;
    size.videos.add(facts.videoOf(transcriptId));
    const shares = facts.sharesCaptions(transcriptId);
    readBody(transcript).segments.forEach((segment, index) => {
      if (shares) {
        const caption = facts.captionOrigin(transcriptId, index) * SEGMENT_SLOTS + index;
        if (counted.has(caption)) return;
        counted.add(caption);
      }
      for (const { token } of textTokens(plainLine(segment.text))) {
        size.words++;
        counts[side].set(token, (counts[side].get(token) ?? 0) + 1);
      }
    });
  }
  const stop = stopWords(languages);
  const c = sizes.target.words;
  const d = sizes.reference.words;
  const words =
    c === 0 || d === 0
      ? []
      : [...counts.target]
          .filter(([word]) => !stop.has(word) && /\p{L}/u.test(word))
          .map(([word, a]) => ({ word, target: a, reference: counts.reference.get(word) ?? 0 }))
          .filter(({ target: a, reference: b }) => a * d > b * c)
          .map((word) => ({ ...word, logLikelihood: logLikelihood(word.target, word.reference, c, d) }))
          .sort(
            (x, y) => y.logLikelihood - x.logLikelihood || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0),
          )
          .slice(0, request.limit);
  const sized = (size: (typeof sizes)['target']) => ({
    transcripts: size.transcripts,
    videos: size.videos.size,
    words: size.words,
  });
  return { target: sized(sizes.target), reference: sized(sizes.reference), words };
}

/** G² = 2 Σ O ln(O / E) over the word's two counts, E as the two corpora's sizes share them. */
export function logLikelihood(a: number, b: number, c: number, d: number): number {
  const expectedA = (c * (a + b)) / (c + d);
  const expectedB = (d * (a + b)) / (c + d);
  const term = (observed: number, expected: number) =>
    observed === 0 ? 0 : observed * Math.log(observed / expected);
  return 2 * (term(a, expectedA) + term(b, expectedB));
}

/** Each transcript of the scope's side: in the target when it meets every test the request gives. */
function sides(
  db: Database,
  request: DistinctiveWordsRequest,
  facts: TranscriptFacts,
  context: LibraryContext,
): (transcriptId: number) => Side {
  const query = request.query?.trim() ? request.query : null;
  const channel = request.targetChannel?.trim() ? foldText(request.targetChannel.trim()) : null;
  const period = request.period?.trim() ? periodNamed(request.period.trim()) : null;
  if (query === null && channel === null && period === null)
    throw new AppError(
      'invalid_input',
      'Say what to find the distinctive words of: a query, a period (such as 2024-05) or a channel.',
    );
  const inScope = narrowingOf(db, request, facts);
  const matching = query === null ? null : new Set(matchingTranscriptIds(db, { ...request, query }));
  return (transcriptId) => {
    if (!inScope(transcriptId)) return 'neither';
    if (matching !== null && !matching.has(transcriptId)) return 'reference';
    if (channel !== null && foldText(context.channelOf(transcriptId) ?? '') !== channel) return 'reference';
    if (period === null) return 'target';
    const days = context.daysOf(facts.videoOf(transcriptId));
    if (days === null) return 'neither';
    const first = periodOf(days.first, period.unit);
    const last = periodOf(days.last, period.unit);
    if (first === period.period && last === period.period) return 'target';
    return first <= period.period && period.period <= last ? 'neither' : 'reference';
  };
}

function periodNamed(label: string): NonNullable<ReturnType<typeof parsePeriod>> {
  const period = parsePeriod(label);
  if (period === undefined)
    throw new AppError(
      'invalid_input',
      `"${label}" is not a period: write a year (2024), a month (2024-05), a week (2024-W18) or a day (2024-05-03).`,
    );
  return period;
}

const stopWordSets = new Map<string, ReadonlySet<string>>();

/** The stop words of these languages (ISO 639-1, as stopwords-iso names them), as index tokens. */
function stopWords(languages: ReadonlySet<string>): ReadonlySet<string> {
  const all = new Set<string>();
  for (const language of languages) {
    let words = stopWordSets.get(language);
    if (words === undefined) {
      const listed = (stopwordsByLanguage as Record<string, string[] | undefined>)[language] ?? [];
      // A stop word is left out as the one token it makes (a character or a pair of characters in a
      // script without spaces, whose last character alone is not counted apart); longer ones are no token.
      words = new Set(
        listed.flatMap((word) => {
          const tokens = textTokens(word);
          const units = tokens.length > 1 ? tokens.filter((token) => !token.runEnd) : tokens;
          return units.length === 1 && units[0] !== undefined ? [units[0].token] : [];
        }),
      );
      stopWordSets.set(language, words);
    }
    for (const word of words) all.add(word);
  }
  return all;
}
