import { describe, expect, it } from 'vitest';
import { databasePath, defaultDataDir } from '../../../src/core/store';

describe('defaultDataDir (the desktop app userData folder)', () => {
  it('uses ~/.config/Scriptorium on Linux, or $XDG_CONFIG_HOME when set', () => {
    expect(defaultDataDir({ platform: 'linux', env: {}, home: '/home/ada' })).toBe(
      '/home/ada/.config/Scriptorium',
    );
    expect(defaultDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '/cfg' }, home: '/home/ada' })).toBe(
      '/cfg/Scriptorium',
    );
  });

  it('uses Application Support on macOS', () => {
    expect(defaultDataDir({ platform: 'darwin', env: {}, home: '/Users/ada' })).toBe(
      '/Users/ada/Library/Application Support/Scriptorium',
    );
  });

  it('uses %APPDATA% on Windows', () => {
    expect(
      defaultDataDir({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
        home: 'C:\\Users\\ada',
      }),
    ).toBe('C:\\Users\\ada\\AppData\\Roaming\\Scriptorium');
  });

  it('puts the database file scriptorium.db in the data folder', () => {
    expect(databasePath('/data')).toBe('/data/scriptorium.db');
  });
});
