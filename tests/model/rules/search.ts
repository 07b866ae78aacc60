/**
 * The Library's search against the stored transcripts (docs/product.md, Searching your transcripts):
 * a word finds every segment that holds it, in every transcript stored (or the job's, or those in a
 * language and its variants), a caption held twice (the same video, language, place and text)
 * counted once. The model asks words of the captions' everyday vocabulary, which no markup holds.
 */
import { only, type ModelJob } from '../job';
import type { ReferenceModel } from '../reference';

/** A stored transcript as the search sees it: its video, the language asked for and the track it holds. */
interface StoredTranscript {
  videoId: string;
  asked: string;
  language: string;
}

/** What `search WORD` should count, or undefined when the model is not sure what is stored. */
export function expectedHits(
  model: ReferenceModel,
  query: { word: string; job: ModelJob | undefined; lang: string | undefined },
): { videos: number; hits: number } | undefined {
  const transcripts = query.job === undefined ? everyTranscript(model) : transcriptsOf(query.job);
  if (transcripts === undefined) return undefined;
  const holds = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${query.word}(?![\\p{L}\\p{N}\\p{M}])`, 'iu');
  const hits = new Set<string>();
  const videos = new Set<string>();
  for (const transcript of transcripts) {
    if (query.lang !== undefined && !inLanguage(transcript.language, query.lang)) continue;
    const told = model.catalog.describeTranscript(
      transcript.videoId,
      transcript.asked === '' ? undefined : transcript.asked,
    );
    told?.segments.forEach((segment, place) => {
      if (!holds.test(segment.text)) return;
      hits.add(`${transcript.videoId}|${told.language}|${place}|${segment.text}`);
      videos.add(transcript.videoId);
    });
  }
  return { videos: videos.size, hits: hits.size };
}

/** `--lang zh` holds `zh-Hans`: the language or a variant of it, by subtag, case ignored. */
function inLanguage(language: string, code: string): boolean {
  const lower = language.toLowerCase();
  const wanted = code.toLowerCase();
  return lower === wanted || lower.startsWith(`${wanted}-`);
}

function everyTranscript(model: ReferenceModel): StoredTranscript[] | undefined {
  const transcripts: StoredTranscript[] = [];
  for (const [key, stored] of model.cache) {
    if (stored.state !== 'yes') return undefined;
    const [videoId = '', asked = ''] = key.split('|');
    transcripts.push({ videoId, asked, language: stored.language });
  }
  return transcripts;
}

function transcriptsOf(job: ModelJob): StoredTranscript[] | undefined {
  const transcripts: StoredTranscript[] = [];
  for (const item of job.items.values()) {
    const status = only(item.status);
    if (status === undefined && item.status.has('ok')) return undefined;
    if (status !== 'ok' || item.requested === undefined) continue;
    const asked = item.requested === 'orig' ? '' : item.requested;
    transcripts.push({ videoId: item.videoId, asked, language: item.language ?? '' });
  }
  return transcripts;
}
