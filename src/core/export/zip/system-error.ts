/** The error code of a Node.js system error (ENOENT, EACCES, ENOSPC…), if it is one. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
