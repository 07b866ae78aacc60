import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZE,
  placeWindow,
  readWindowState,
  saveWindowState,
  WINDOW_STATE_FILE,
} from '../../src/main/window-state';
import { tempDir } from '../support/cli';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const monitorOnTheRight = { x: 1440, y: -200, width: 2560, height: 1400 };

describe("the window's size and place", () => {
  it('are remembered between runs', () => {
    const file = join(tempDir(), 'nested', WINDOW_STATE_FILE);
    expect(readWindowState(file)).toBeUndefined();
    saveWindowState(file, { x: 1600, y: 40, width: 1300, height: 900, maximized: true });
    const saved = readWindowState(file);
    expect(saved).toEqual({ x: 1600, y: 40, width: 1300, height: 900, maximized: true });
    expect(placeWindow(saved, [laptop, monitorOnTheRight])).toEqual({
      x: 1600,
      y: 40,
      width: 1300,
      height: 900,
      maximized: true,
    });
  });

  it('are ignored when the file is not one the app wrote', () => {
    const file = join(tempDir(), WINDOW_STATE_FILE);
    for (const content of [
      'not json',
      'null',
      '[1,2,3]',
      JSON.stringify({ x: 10, y: 10, width: 1000, height: 700 }),
      JSON.stringify({ x: 10, y: 10, width: 1000.5, height: 700, maximized: false }),
      JSON.stringify({ x: 10, y: 10, width: 50, height: 700, maximized: false }),
      JSON.stringify({ x: 1e9, y: 10, width: 1000, height: 700, maximized: false }),
      JSON.stringify({ x: '10', y: 10, width: 1000, height: 700, maximized: false }),
    ]) {
      writeFileSync(file, content);
      expect(readWindowState(file), content).toBeUndefined();
    }
    expect(placeWindow(undefined, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });

  it('come back on screen when the display they were on is gone, fitted to the primary display', () => {
    const onUnpluggedMonitor = { x: 1600, y: 40, width: 2000, height: 1200, maximized: false };
    expect(placeWindow(onUnpluggedMonitor, [laptop])).toEqual({ width: 1440, height: 875, maximized: false });
  });

  it('stay where they were while the title bar can be grabbed, shrunk to the display', () => {
    // Mostly off the right edge, but 200 px of its top still show.
    expect(placeWindow({ x: 1240, y: 100, width: 800, height: 600, maximized: false }, [laptop])).toEqual({
      x: 1240,
      y: 100,
      width: 800,
      height: 600,
      maximized: false,
    });
    // Title bar above the top of the display, or hidden under its bottom edge: recentred.
    expect(
      placeWindow({ x: 100, y: -300, width: 800, height: 600, maximized: false }, [laptop]),
    ).not.toHaveProperty('x');
    expect(
      placeWindow({ x: 100, y: 860, width: 800, height: 600, maximized: false }, [laptop]),
    ).not.toHaveProperty('y');
    // Only 40 px showing on the left edge: too little to grab.
    expect(
      placeWindow({ x: -760, y: 100, width: 800, height: 600, maximized: false }, [laptop]),
    ).not.toHaveProperty('x');
    expect(
      placeWindow({ x: 1500, y: -100, width: 3000, height: 1600, maximized: false }, [
        laptop,
        monitorOnTheRight,
      ]),
    ).toEqual({
      x: 1500,
      y: -100,
      width: 2560,
      height: 1400,
      maximized: false,
    });
  });
});
