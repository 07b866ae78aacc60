import type { ScriptoriumApi } from '../../../shared/contract';
import { bridgeApi } from './electron';
import { httpApi } from './http';

/**
 * The one place the renderer chooses how it reaches the app: the Electron preload's bridge when
 * it runs in the desktop app, browser mode's HTTP otherwise (its token is a cookie by then).
 */
export function connect(): ScriptoriumApi {
  return window.scriptorium !== undefined ? bridgeApi(window.scriptorium) : httpApi({ origin: '' });
}
