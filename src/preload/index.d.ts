import type { ScriptoriumBridge } from '../shared/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    scriptorium?: ScriptoriumBridge;
  }
}
