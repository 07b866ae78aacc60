export { writeCorpus } from './write-corpus';
export { buildDifferences, corpusBuild } from './corpus-build';
export type { CorpusBuild } from './corpus-build';
export { CorpusUnreadableError, verifyCorpus } from './verify/verify';
export type { VerifyReport } from './verify/verify';
export { ExportError, ExportInterruptedError, describeWriteFailure, isKnownWriteFailure } from './errors';
export { checkExportTarget, ExportTargetError } from './target';
export { DEFAULT_NAME_TEMPLATE } from './corpus/naming';
export { WORD_COUNT_METHOD } from './corpus/plain-text';
export { MAX_ENTRY_PATH_BYTES, printable, readable } from './zip/layout';
export { EXPORT_FORMATS } from './corpus/types';
export type {
  ExportAuthor,
  ExportChange,
  ExportCitation,
  ExportMembership,
  ExportVersion,
  ExportFormat,
  ExportInput,
  ExportManifest,
  ExportOptions,
  ExportProgress,
  ExportRelease,
  ExportResult,
  ExportSourceFailure,
  ExportSync,
  ExportListing,
  ExportSegment,
  ExportVideo,
  WordCountMethod,
} from './corpus/types';
export { CONCORDANCE_HEADER, writeConcordanceFile, writeSearchResultsFile } from './search-results';
export { tempPathBeside } from './zip/temp-files';
export type { SearchResultRow } from './search-results';
/** The corpus tables' CSV rules, for the Library's tables (trends, distinctive words). */
export { csvRecord, idCell, textCell } from './corpus/tables';
