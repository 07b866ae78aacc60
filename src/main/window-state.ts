import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A rectangle in screen coordinates, as Electron's Display.workArea. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where and how large the window was when it last closed. */
export interface SavedWindow extends Area {
  maximized: boolean;
}

/** Where to open the window; without x and y, Electron centres it on the primary display. */
export interface Placement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** The file name of the window's place inside the user data folder. */
export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1100, height: 720 };
export const MIN_SIZE = { width: 720, height: 480 };
/** How much of the window's top must show on a display for the user to grab it. */
const GRAB = { width: 120, height: 40 };

/** The saved place, or undefined when there is none or the file is not one this app wrote. */
export function readWindowState(file: string): SavedWindow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { x, y, width, height, maximized } = value as Record<string, unknown>;
  const coordinate = (n: unknown): n is number => Number.isInteger(n) && Math.abs(n as number) <= 100_000;
  const size = (n: unknown, min: number): n is number =>
    Number.isInteger(n) && (n as number) >= min && (n as number) <= 20_000;
  if (!coordinate(x) || !coordinate(y) || !size(width, MIN_SIZE.width) || !size(height, MIN_SIZE.height)) {
    return undefined;
  }
  if (typeof maximized !== 'boolean') return undefined;
  return { x, y, width, height, maximized };
}

export function saveWindowState(file: string, state: SavedWindow): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * Where to open the window given the saved place and the displays' work areas (the primary one first):
 * the saved place when its top can still be grabbed on some display, shrunk to fit that display;
 * otherwise (a display unplugged, a resolution changed) the saved size, fitted to the primary display
 * and centred there.
 */
export function placeWindow(saved: SavedWindow | undefined, workAreas: Area[]): Placement {
  const primary = workAreas[0];
  if (saved === undefined || primary === undefined) return { ...DEFAULT_SIZE, maximized: false };
  const home = workAreas.find((area) => topIsReachable(saved, area));
  if (home === undefined) return { ...fitted(saved, primary), maximized: saved.maximized };
  return { x: saved.x, y: saved.y, ...fitted(saved, home), maximized: saved.maximized };
}

function topIsReachable(window: Area, area: Area): boolean {
  const left = Math.max(window.x, area.x);
  const right = Math.min(window.x + window.width, area.x + area.width);
  const titleOnArea = window.y >= area.y && window.y <= area.y + area.height - GRAB.height;
  return titleOnArea && right - left >= GRAB.width;
}

function fitted(window: Area, area: Area): { width: number; height: number } {
  return { width: Math.min(window.width, area.width), height: Math.min(window.height, area.height) };
}
