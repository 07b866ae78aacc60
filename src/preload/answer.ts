/**
 * The main process's answer to an invoke, or, when none comes (the app is closing, or its channel is
 * not bound), the typed error `unreachable`: an Error crossing contextBridge would lose its code, so
 * the renderer always receives an envelope. Plain data: the sandboxed preload loads no package.
 */
export async function answerFrom(invocation: () => Promise<unknown>): Promise<unknown> {
  try {
    return await invocation();
  } catch {
    return {
      ok: false,
      error: {
        code: 'unreachable',
        message:
          'The window lost its connection to Scriptorium (it may be closing). Restart Scriptorium if this goes on.',
      },
    };
  }
}
