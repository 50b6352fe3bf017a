// Every error code of the API and its HTTP status (api-v1-decisions.md, "HTTP status of every error code").

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  location_closed: 409,
  location_inactive: 409,
  insufficient_stock: 409,
  illegal_transition: 409,
  managed_by_integrator: 409,
  state_conflict: 409,
  rate_limited: 429,
  payment_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string };
}
