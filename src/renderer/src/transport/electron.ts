import type { ScriptoriumApi, ScriptoriumBridge } from '../../../shared/contract';
import { createApi } from '../../../shared/client';

/** The contract over the Electron preload's bridge, whose answers are envelopes. */
export function bridgeApi(bridge: ScriptoriumBridge): ScriptoriumApi {
  return createApi(
    (name, input) => (bridge[name] as (input: unknown) => Promise<never>)(input),
    (event, listener) => bridge.on(event, listener),
  );
}
