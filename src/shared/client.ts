import { commandNames, type CommandName, type EventName } from './channels';
import type { Answer, EventPayload, ScriptoriumApi } from './contract';
import { ContractError } from './contract-error';

/** An answer's value, or its typed error thrown as a ContractError: how every face reads an envelope. */
export function unwrap<T>(answer: Answer<T>): T {
  if (answer.ok) return answer.value;
  throw new ContractError(answer.error);
}

/** Sends one command over a transport and resolves with its answer (never rejects for a typed error). */
export type SendCommand = (name: CommandName, input: unknown) => Promise<Answer<unknown>>;

export type SubscribeToEvents = <N extends EventName>(
  event: N,
  listener: (payload: EventPayload<N>) => void,
) => () => void;

/**
 * The contract as a face calls it, over any transport that answers with Answer envelopes (IPC,
 * HTTP, the CLI's in-process dispatch): one method per command, which resolves with the output or
 * throws ContractError with the failure's code.
 */
export function createApi(send: SendCommand, subscribe: SubscribeToEvents): ScriptoriumApi {
  const methods = Object.fromEntries(
    commandNames.map((name) => [name, async (input: unknown) => unwrap(await send(name, input))]),
  );
  // One listener's bug must not keep the others (the screens' stores) from hearing an event.
  const on: SubscribeToEvents = (event, listener) =>
    subscribe(event, (payload) => {
      try {
        listener(payload);
      } catch (error) {
        console.error(`A listener of the ${event} event failed.`, error);
      }
    });
  return { ...methods, on } as ScriptoriumApi;
}
