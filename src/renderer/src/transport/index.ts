import type { ScriptoriumApi } from '../../../shared/contract';
import type { DesktopApi } from '../../../shared/desktop';
import { desktopApi } from './desktop';
import { bridgeApi } from './electron';
import { httpApi } from './http';

/**
 * The one place the renderer chooses how it reaches the app: the Electron preload's bridge when
 * it runs in the desktop app, browser mode's HTTP otherwise (relative to the page's private
 * address, which carries the token).
 */
export function connect(): ScriptoriumApi {
  return window.scriptorium !== undefined ? bridgeApi(window.scriptorium) : httpApi({ base: '' });
}

/** The operating system's dialogs and browser in the desktop app; undefined in browser mode. */
export function desktop(): DesktopApi | undefined {
  const bridge = window.scriptoriumDesktop;
  return bridge === undefined ? undefined : desktopApi(bridge);
}
