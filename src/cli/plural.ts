/** "1 video", "2,000 videos": a count and its noun, as every line of the CLI says it. */
export function plural(count: number, noun: string, pluralForm = `${noun}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : pluralForm}`;
}
