import { expect } from 'vitest';
import { ApiError } from '../../../src/core/api';

/** Awaits a call that must fail, checks that it failed with an ApiError, and returns it. */
export async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
