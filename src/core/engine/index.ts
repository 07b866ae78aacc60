export { Engine } from './engine';
export { CannotKeepCurrentError, JobNotFinishedError, JobNotFoundError, JobRunningError } from './errors';
export { canKeepCurrent, KeepCurrent } from './keep-current';
export { CreditLedger } from './credits';
export { UserSettings, type SettingsChange } from './user-settings';
export { DRAIN_MS } from './run-control';
export { PreparationLoop } from './prepare-transcripts';
export type { Derivation, PreparationProgress } from './prepare-transcripts';
export { PreparationMessage, PreparationRequest } from './transcript-preparation';
export type { PreparationThread } from './transcript-preparation';
export { Throttle } from './throttle';
export type { ThrottleOptions } from './throttle';
export { paymentMeaning, REJECTED_MESSAGE, UNREADABLE_MESSAGE } from './failures';
export { cacheLang } from './spec';
export type {
  CreditStatus,
  EngineDeps,
  EngineEvents,
  EstimateResult,
  ExportRow,
  ItemCountsView,
  ItemStatus,
  JobOptions,
  JobSnapshot,
  JobSpec,
  JobStatus,
  JobSummary,
  Logger,
  PreviewOutcome,
  RequestPacer,
  RunOutcome,
  RunSettings,
  SpendingCap,
  SyncOutcome,
  SourceProgress,
  WalkStatus,
} from './types';
