import { ContractError } from '../../../shared/contract-error';
import type { ErrorCode } from '../../../shared/errors';

export interface ShownError {
  message: string;
  /** Codes the user fixes in Settings (the key, the service's address). */
  fixInSettings: boolean;
}

const FIXED_IN_SETTINGS: ReadonlySet<ErrorCode> = new Set(['no_key', 'key_refused']);

/**
 * What to tell the user about a failed command. Every failure of the contract, one that never
 * reached the app included (`unreachable`), is a ContractError with a plain message; anything else
 * is a bug of the window itself.
 */
export function describeError(error: unknown): ShownError {
  if (error instanceof ContractError) {
    return { message: error.message, fixInSettings: FIXED_IN_SETTINGS.has(error.code) };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { message: `Something went wrong: ${detail}`, fixInSettings: false };
}
