import type { ScriptoriumApi } from '../../shared/contract';
import { createApi } from '../../shared/client';
import type { ScriptoriumApp } from './compose';
import { dispatch } from './dispatch';

/**
 * The contract as a face in this same process uses it (the CLI): every command goes through the
 * dispatcher IPC and HTTP use, so inputs are parsed the same way and failures come back as
 * ContractError with their code.
 */
export function localApi(app: ScriptoriumApp): ScriptoriumApi {
  return createApi((name, input) => dispatch(app.handlers, name, input), app.on);
}
