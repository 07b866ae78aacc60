/**
 * Playlists edited while the simulator runs (admin.editPlaylist): a second state of the catalog,
 * beside the uploads, so that tests can watch a playlist gain videos at its end, lose one or see one
 * moved. A playlist never edited is the generated one; its first edit keeps it as a list of its own,
 * and every later answer (pages, sizes, playlist_info) reads that list.
 */
import { rngFor } from './random';

/** One change a playlist's owner makes. Positions are 1-based, as the list shows them. */
export type PlaylistEdit =
  | { kind: 'append'; count: number }
  | { kind: 'remove'; position: number }
  | { kind: 'move'; from: number; to: number };

export class PlaylistEditBook {
  readonly #seed: number;
  readonly #lists = new Map<string, string[]>();
  /** How many videos each playlist gained, so that each appended video has an ID of its own. */
  readonly #appended = new Map<string, number>();

  constructor(seed: number) {
    this.#seed = seed;
  }

  /** The videos of an edited playlist in order, or undefined when it was never edited. */
  videos(playlistId: string): readonly string[] | undefined {
    return this.#lists.get(playlistId);
  }

  /**
   * Applies `edit` to the playlist, whose videos are `current` until its first edit. An appended video
   * is a catalog video like any other (its facts come from its ID). A position outside the list is
   * refused with a RangeError, and nothing changes.
   */
  edit(playlistId: string, current: readonly string[], edit: PlaylistEdit): void {
    const videos = [...(this.#lists.get(playlistId) ?? current)];
    const inList = (position: number): boolean =>
      Number.isSafeInteger(position) && position >= 1 && position <= videos.length;
    switch (edit.kind) {
      case 'append': {
        if (!Number.isSafeInteger(edit.count) || edit.count < 1)
          throw new RangeError('append needs a count of at least 1');
        const before = this.#appended.get(playlistId) ?? 0;
        for (let k = before + 1; k <= before + edit.count; k++)
          videos.push(rngFor(this.#seed, 'appended', playlistId, k).idChars(11));
        this.#appended.set(playlistId, before + edit.count);
        break;
      }
      case 'remove':
        if (!inList(edit.position)) throw new RangeError(`no video at position ${edit.position}`);
        videos.splice(edit.position - 1, 1);
        break;
      case 'move': {
        if (!inList(edit.from) || !inList(edit.to))
          throw new RangeError(`cannot move ${edit.from} to ${edit.to} in a list of ${videos.length}`);
        const [moved] = videos.splice(edit.from - 1, 1);
        videos.splice(edit.to - 1, 0, moved!);
        break;
      }
    }
    this.#lists.set(playlistId, videos);
  }

  clear(): void {
    this.#lists.clear();
    this.#appended.clear();
  }
}
