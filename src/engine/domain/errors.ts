import { ERROR_STATUS, KITCHEN_ERROR_STATUS, type ErrorCode, type KitchenOnlyErrorCode } from '../../shared/error-codes.ts';
import { redactApiKeys } from './api-key-redaction.ts';

/**
 * A refusal the API reports as `{ error: { code, message } }` with the code's HTTP status. The
 * message never carries an API key: one quoted from a request is redacted here, once for every door.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Sent as `Retry-After` (seconds) when set: when asking again may succeed. */
  readonly retryAfterSeconds: number | null;

  constructor(code: ErrorCode, message: string, retryAfterSeconds: number | null = null) {
    super(redactApiKeys(message));
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const invalidRequest = (message: string) => new ApiError('invalid_request', message);
export const notFound = (message: string) => new ApiError('not_found', message);

/**
 * A refusal only the kitchen's channels give (never the public API): its code is one of
 * KITCHEN_ERROR_STATUS, so the screen can translate it.
 */
export class KitchenError extends Error {
  readonly code: KitchenOnlyErrorCode;

  constructor(code: KitchenOnlyErrorCode, message: string) {
    super(message);
    this.name = 'KitchenError';
    this.code = code;
  }

  get status(): number {
    return KITCHEN_ERROR_STATUS[this.code];
  }
}
