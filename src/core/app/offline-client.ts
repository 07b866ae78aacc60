import type { TranscriptClient } from '../api';

/**
 * A client that sends nothing: the run of a job made from the Library is answered from the cache,
 * and this guarantees it (with the job's budget of 0, which stops the run before any paid request).
 */
export function offlineClient(): TranscriptClient {
  const refuse = (): Promise<never> =>
    Promise.reject(
      new Error('A job made from the Library is answered from the stored transcripts: nothing is sent.'),
    );
  return {
    transcript: refuse,
    playlistVideos: refuse,
    channelResolve: refuse,
    channelVideos: refuse,
    channelLatest: refuse,
    search: refuse,
    channelSearch: refuse,
    close: async () => undefined,
  };
}
