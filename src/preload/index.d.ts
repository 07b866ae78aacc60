import type { ScriptoriumApi } from '../shared/contract';

declare global {
  interface Window {
    scriptorium: ScriptoriumApi;
  }
}
