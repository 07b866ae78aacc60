import type { AppErrorData, ErrorCode } from './errors';

/**
 * How a face receives a failed command: a thrown Error carrying the code of src/shared/errors.ts.
 * Kept free of packages so that the renderer and the sandboxed preload can load it.
 */
export class ContractError extends Error {
  readonly code: ErrorCode;

  constructor(data: AppErrorData) {
    super(data.message);
    this.name = 'ContractError';
    this.code = data.code;
  }
}
