import { useStore } from 'zustand';
import { BUILT_IN_JOB_DEFAULTS, type ScriptoriumApi } from '../../../shared/contract';
import { connect } from '../transport';
import { createConcordanceStore, type ConcordanceState } from './concordance';
import { createCreditsStore, type CreditsState } from './credits';
import { createExportsStore, type ExportsState } from './exports';
import { createJobsStore, type JobsState } from './jobs';
import { createLibraryStore, type LibraryState } from './library';
import { createNewJobStore, type NewJobState } from './new-job';
import { createReaderStore, type ReaderState } from './reader';
import { createSettingsStore, type SettingsState } from './settings';
import { createSyncsStore, type SyncsState } from './syncs';
import { createTrendsStore, type TrendsState } from './trends';
import { createUpdatesStore, type UpdatesState } from './updates';
import { createVideoPagesStore, type VideoPagesState } from './video-pages';

/** The renderer's one connection to the app (Electron IPC or browser mode's HTTP). */
export const api: ScriptoriumApi = connect();

export const jobsStore = createJobsStore(api);
export const creditsStore = createCreditsStore(api);
export const settingsStore = createSettingsStore(api);
export const videoPagesStore = createVideoPagesStore(api);
export const newJobStore = createNewJobStore(api);
export const exportsStore = createExportsStore(api);
export const syncsStore = createSyncsStore(api);
export const libraryStore = createLibraryStore(api);
export const readerStore = createReaderStore(api);
export const updatesStore = createUpdatesStore(api);
export const concordanceStore = createConcordanceStore(api);
export const trendsStore = createTrendsStore(api);

export const useJobs = <T>(select: (state: JobsState) => T): T => useStore(jobsStore, select);
export const useCredits = <T>(select: (state: CreditsState) => T): T => useStore(creditsStore, select);
export const useSettings = <T>(select: (state: SettingsState) => T): T => useStore(settingsStore, select);
export const useVideoPages = <T>(select: (state: VideoPagesState) => T): T =>
  useStore(videoPagesStore, select);
export const useNewJob = <T>(select: (state: NewJobState) => T): T => useStore(newJobStore, select);
export const useExports = <T>(select: (state: ExportsState) => T): T => useStore(exportsStore, select);
export const useSyncs = <T>(select: (state: SyncsState) => T): T => useStore(syncsStore, select);
export const useLibrary = <T>(select: (state: LibraryState) => T): T => useStore(libraryStore, select);
export const useReader = <T>(select: (state: ReaderState) => T): T => useStore(readerStore, select);
export const useUpdates = <T>(select: (state: UpdatesState) => T): T => useStore(updatesStore, select);
export const useConcordance = <T>(select: (state: ConcordanceState) => T): T =>
  useStore(concordanceStore, select);
export const useTrends = <T>(select: (state: TrendsState) => T): T => useStore(trendsStore, select);

/**
 * Feeds the stores from the contract's events, then loads what they start from (subscribing first,
 * so nothing that happens during the load is missed). Returns a function that stops listening.
 */
export function startStores(): () => void {
  const stops = [
    api.on('jobChanged', (job) => jobsStore.getState().jobChanged(job)),
    api.on('jobRemoved', (event) => jobsStore.getState().jobRemoved(event)),
    api.on('retryWait', (event) => jobsStore.getState().retryWaited(event)),
    api.on('paymentRequired', (event) => jobsStore.getState().paymentRequired(event)),
    api.on('creditsChanged', (view) => creditsStore.getState().changed(view)),
    api.on('videosChanged', ({ jobId }) => videoPagesStore.getState().refresh(jobId)),
    api.on('exportProgress', (event) => exportsStore.getState().progress(event)),
    api.on('jobSynced', (event) => syncsStore.getState().ended(event)),
    api.on('libraryIndexing', (event) => libraryStore.getState().indexed(event)),
    api.on('searchExportProgress', (event) => libraryStore.getState().exportProgressed(event)),
    api.on('updateChanged', (status) => updatesStore.getState().changed(status)),
  ];
  void updatesStore.getState().load();
  void libraryStore.getState().loadStatus();
  void jobsStore.getState().load();
  void creditsStore.getState().load();
  void settingsStore
    .getState()
    .load()
    .then(() => {
      const defaults = settingsStore.getState().settings?.defaults ?? BUILT_IN_JOB_DEFAULTS;
      newJobStore.getState().applyDefaults(defaults);
    });
  return () => stops.forEach((stop) => stop());
}
