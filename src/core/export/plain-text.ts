/**
 * Control characters (\p{Cc}: C0, DEL and C1) other than tab, LF and CR, e.g. NUL and ESC. They are
 * invisible in a reader, and some act as commands: ESC starts a terminal escape sequence, NUL cuts a
 * C string short. Each format decides for itself what becomes of tab, LF and CR.
 */
const CONTROLS_BUT_TAB_AND_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/gu;

/** The text without control characters, except tab, LF and CR. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS_BUT_TAB_AND_LINE_BREAKS, '');
}
