import { afterEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import { combineDomains } from '../../../src/shared/combine-domains';
import { commandNames, commands } from '../../../src/shared/contract';
import { tempDir } from '../../support/cli';

// The handlers and the contract are each put together from one part per domain (jobs, runs, Keep
// current, exports, the Library, settings, credits): every command is given by exactly one.

let app: ScriptoriumApp | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('combining the domains', () => {
  it('refuses a command two domains both give, rather than letting one replace the other', () => {
    const runs = { runJob: async () => 'run by runs' };
    const jobs = { listJobs: async () => [], runJob: async () => 'run by jobs' };
    expect(() => combineDomains('the app handlers', runs, jobs)).toThrow(
      'the app handlers: two domains both give "runJob"; each name belongs to one domain.',
    );
  });

  it('keeps every part of domains that do not overlap, each as given', () => {
    const runJob = async () => 'ran';
    const listJobs = async () => [];
    const combined = combineDomains('the app handlers', { runJob }, { listJobs });
    expect(combined).toEqual({ runJob, listJobs });
  });

  it('gives the opened app one handler for every command of the contract, and nothing else', () => {
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
    expect(Object.keys(app.handlers).sort()).toEqual([...commandNames].sort());
    expect(Object.keys(commands).sort()).toEqual([...commandNames].sort());
  });
});
