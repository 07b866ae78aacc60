import type { ScriptoriumBridge } from '../shared/contract';
import type { DesktopBridge } from '../shared/desktop';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    scriptorium?: ScriptoriumBridge;
    /** Set by the Electron preload; absent in browser mode. */
    scriptoriumDesktop?: DesktopBridge;
  }
}
