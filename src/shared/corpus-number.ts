/**
 * Digits of a corpus number as file names and screens show it: always six (more only past 999,999
 * videos), so that names sort by number and no name widens as a corpus grows (docs/product.md,
 * "Corpus versions").
 */
export const CORPUS_NUMBER_DIGITS = 6;

/** A video's corpus number as its files in the ZIP carry it: 7 → "000007". */
export function formatCorpusNumber(number: number): string {
  return String(number).padStart(CORPUS_NUMBER_DIGITS, '0');
}
