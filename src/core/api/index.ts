export { createClient } from './client';
export { Pacer } from './pacing';
export type { PacerOptions } from './pacing';
export { realClock } from './clock';
export { ApiError, isApiError } from './errors';
export type { ApiErrorKind, ApiErrorDetails } from './errors';
export { FREE_ENDPOINTS } from './types';
export type * from './types';
export { rereadStoredTranscript } from './schemas';
