/** Only https links leave the app (PRODUCT.md): never file:, smb:, javascript: or plain http. */
export function safeHttpsUrl(candidate: string | null | undefined): string | null {
  if (candidate === null || candidate === undefined) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A video's page on the platform, for the detail of a row. */
export function videoPageUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
}
