import { ERROR_STATUS, type ErrorCode } from '../../shared/error-codes.ts';
import { redactApiKeys } from './api-key-redaction.ts';

/**
 * A refusal the API reports as `{ error: { code, message } }` with the code's HTTP status. The
 * message never carries an API key: one quoted from a request is redacted here, once for every door.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(redactApiKeys(message));
    this.name = 'ApiError';
    this.code = code;
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
