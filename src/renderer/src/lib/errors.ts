import { ContractError } from '../../../shared/contract-error';
import type { ErrorCode } from '../../../shared/errors';

export interface ShownError {
  message: string;
  /** Codes the user fixes in Settings (the key, the service's address). */
  fixInSettings: boolean;
}

const FIXED_IN_SETTINGS: ReadonlySet<ErrorCode> = new Set(['no_key', 'key_refused']);

/**
 * What to tell the user about a failed command. The app's errors already carry a plain message;
 * anything else means the app itself could not be reached (browser mode's server stopped).
 */
export function describeError(error: unknown): ShownError {
  if (error instanceof ContractError) {
    return { message: error.message, fixInSettings: FIXED_IN_SETTINGS.has(error.code) };
  }
  if (error instanceof TypeError) {
    return {
      message:
        'Scriptorium cannot be reached. If it runs in a terminal (scriptorium ui), check that it is still running, then reload this page.',
      fixInSettings: false,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { message: `Something went wrong: ${detail}`, fixInSettings: false };
}
