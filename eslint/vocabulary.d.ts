import type { ESLint } from 'eslint';

/** Each value the rule guards, with the vocabulary lists that hold it (read from src/shared/vocabulary.ts). */
export function readVocabulary(source?: string): Map<string, Array<{ what: string; named: string }>>;

declare const plugin: ESLint.Plugin;
export default plugin;
