/**
 * The names of the contract's commands and events, apart from their schemas: the sandboxed
 * preload can load no package, so it builds its object from these names alone. contract/index.ts
 * checks that its schemas cover exactly these names.
 */
export const commandNames = [
  'validateSources',
  'previewJob',
  'findJob',
  'createJob',
  'startJob',
  'runJob',
  'syncJob',
  'pauseJob',
  'resumeJob',
  'renameJob',
  'cancelJob',
  'setKeepCurrent',
  'setAutoExport',
  'autoSyncJob',
  'retryFailed',
  'retryUnavailable',
  'deleteJob',
  'listJobs',
  'jobDetail',
  'listVideos',
  'exportJob',
  'creditStatus',
  'setBalance',
  'getSettings',
  'updateSettings',
  'addressInUse',
  'keyStatus',
  'setKey',
  'removeKey',
  'testConnection',
  'checkService',
  'searchTranscripts',
  'readTranscript',
  'exportSearchResults',
  'cancelSearchExport',
  'createJobFromSearch',
  'libraryStatus',
  'updateStatus',
  'checkForUpdates',
  'downloadUpdate',
  'installUpdate',
  'libraryTrends',
  'libraryConcordance',
  'distinctiveWords',
] as const;

export const eventNames = [
  'jobChanged',
  'jobRemoved',
  'videosChanged',
  'paymentRequired',
  'retryWait',
  'exportProgress',
  'creditsChanged',
  'jobSynced',
  'libraryIndexing',
  'searchExportProgress',
  'updateChanged',
] as const;

export type CommandName = (typeof commandNames)[number];
export type EventName = (typeof eventNames)[number];

/** The IPC channel names both ends agree on. */
export const ipcChannel = {
  command: (name: CommandName) => `scriptorium:command:${name}`,
  event: (name: EventName) => `scriptorium:event:${name}`,
};
