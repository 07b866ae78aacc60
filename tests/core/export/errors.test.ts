import { describe, expect, it } from 'vitest';
import {
  describeWriteFailure,
  ExportError,
  toExportError,
  VideoReadError,
} from '../../../src/core/export/errors';

describe('describeWriteFailure', () => {
  it('tells the user the disk is full and what to do', () => {
    expect(describeWriteFailure('/x/y.zip', 'ENOSPC')).toBe(
      'Could not write /x/y.zip: the disk is full. Free some space or choose another location for the ZIP.',
    );
  });

  it.each([
    ['EACCES', 'permission was denied'],
    ['EROFS', 'the disk is read-only'],
    ['ENOENT', 'the folder does not exist'],
    ['ENOTDIR', 'part of the path is a file'],
    ['EISDIR', 'a folder already has that name'],
    ['EDQUOT', 'quota'],
  ])('explains %s', (code, reason) => {
    const message = describeWriteFailure('/x/y.zip', code);
    expect(message.startsWith('Could not write /x/y.zip: ')).toBe(true);
    expect(message).toContain(reason);
  });

  it('names an unknown code and still says what to try', () => {
    expect(describeWriteFailure('/x/y.zip', 'EWEIRD')).toBe(
      'Could not write /x/y.zip: an unexpected error occurred (EWEIRD). Try again or choose another location for the ZIP.',
    );
    expect(describeWriteFailure('/x/y.zip', undefined)).toContain('an unexpected error occurred.');
  });
});

describe('toExportError', () => {
  it('keeps the system error code and the cause', () => {
    const cause = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const error = toExportError('/x/y.zip', cause);
    expect(error).toBeInstanceOf(ExportError);
    expect(error).toMatchObject({ path: '/x/y.zip', code: 'ENOSPC', cause });
    expect(error.message).toContain('the disk is full');
  });

  it('says when reading the videos failed rather than blaming the disk', () => {
    const cause = new Error('database is locked');
    const error = toExportError('/x/y.zip', new VideoReadError(cause));
    expect(error.message).toBe(
      "Could not write /x/y.zip: reading the job's videos failed (database is locked). Nothing was saved; try the export again.",
    );
    expect(error.cause).toBe(cause);
    expect(error.code).toBeUndefined();
  });
});
