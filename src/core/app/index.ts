/**
 * The application surface: the only door faces (CLI, Electron main, browser mode) use. What they
 * get is the contract of src/shared/contract/, served by the handlers here (handlers/, a file per
 * domain), and the few hooks a face needs to host it (a key store, a download for browser mode).
 */
export { openApp } from './compose';
export type { AppOptions, ScriptoriumApp, Subscribe } from './compose';
export { dispatch, isCommandName } from './dispatch';
export { AppError, toAppError } from './errors';
export type { AppHandlers } from './handlers';
export type { IndexingProgress } from '../engine';
export { environmentKeyStore, memoryKeyStore, parseBoundKey, serializeBoundKey } from './keys';
export type { BoundKey, KeyStore } from './keys';
export { localApi } from './local-api';
export { NO_UPDATES, noUpdates } from './updates';
export type { Updates } from './updates';
/** The built worker's file name, which a face finds beside its own bundle (AppOptions.searchExportWorker). */
export { SEARCH_EXPORT_WORKER_FILE } from './search-export-thread';
/** The desktop app's data folder, which the CLI shares by default. */
export { defaultDataDir } from '../store';
/** Whether a path may receive a ZIP (never a folder, a device, a link or someone else's file). */
export { checkExportTarget } from '../export';
/** Checks a corpus ZIP against its SHA256SUMS and its manifest. */
export { CorpusUnreadableError, verifyCorpus } from '../export';
/** Text as it may reach a terminal: control characters escaped. */
export { printable, readable } from '../export';
/** Trends and distinctive words as CSV (the corpus tables' cell rules). */
export { distinctiveWordsCsv, trendCsv } from './analysis-tables';
