export { writeCorpus } from './write-corpus';
export { CorpusUnreadableError, verifyCorpus } from './verify';
export type { VerifyReport } from './verify';
export { ExportError, ExportInterruptedError, describeWriteFailure } from './errors';
export { checkExportTarget, ExportTargetError } from './target';
export { DEFAULT_NAME_TEMPLATE } from './naming';
export { MAX_ENTRY_PATH_BYTES, printable } from './zip-layout';
export { EXPORT_FORMATS } from './types';
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
} from './types';
export { writeSearchResultsFile } from './search-results';
export { tempPathBeside } from './temp-files';
export type { SearchResultRow } from './search-results';
