/**
 * What a source shown to users really exports on the simulator: the kind the app reads it as
 * (parseSource) and how many videos that brings. Lets tests check documented examples, which can look
 * right and be wrong: `PLdemo_n120` reads like a 120-video playlist, but the app exports it as one video.
 */
import { parseSource } from '../../src/shared/sources';
import { describeChannel, describePlaylist } from '../../src/simulator';

export interface SourceAsExported {
  /** 'video', 'playlist', 'channel', 'search', or why the app refuses the source. */
  kind: string;
  /** Videos it brings; absent for a search. */
  videos?: number;
}

export function sourceAsExported(text: string, seed = 1): SourceAsExported {
  const check = parseSource(text);
  if (!check.ok) return { kind: `refused: ${check.reason}` };
  const { kind, id } = check.source;
  switch (kind) {
    case 'video':
      return { kind, videos: 1 };
    case 'playlist':
      return { kind, videos: describePlaylist(id, seed).size };
    case 'channel':
      return { kind, videos: describeChannel(id, seed).size };
    case 'search':
      return { kind };
  }
}
