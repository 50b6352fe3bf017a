import { ERROR_STATUS, type ErrorCode } from '../../shared/error-codes.ts';

/** A refusal the API reports as `{ error: { code, message } }` with the code's HTTP status. */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
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
