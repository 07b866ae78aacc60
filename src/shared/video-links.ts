/**
 * A video's page on YouTube, e.g. https://www.youtube.com/watch?v=dQw4w9WgXcQ: the Library's links
 * and a corpus's records alike. The id is percent-encoded (a lone surrogate, which has no encoding, as
 * U+FFFD), so that even an id no real video has gives a URL rather than an error.
 */
export function videoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId.replace(/\p{Cs}/gu, '\ufffd'))}`;
}

/** The video's address opening at `seconds` (whole seconds; the start without a time). */
export function videoUrlAt(videoId: string, seconds: number | null): string {
  return seconds === null ? videoUrl(videoId) : `${videoUrl(videoId)}&t=${Math.floor(seconds)}s`;
}

/** A moment in a video as people write it: mm:ss under an hour, else h:mm:ss. */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const two = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  return hours > 0 ? `${hours}:${two(minutes)}:${two(whole % 60)}` : `${two(minutes)}:${two(whole % 60)}`;
}
