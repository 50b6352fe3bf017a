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
  storage_full: 503,
  storage_damaged: 503,
  /** The database cannot be reached or written just now (a failover under way, issue 35); with Retry-After. */
  storage_unavailable: 503,
  /** Busy mode: the location takes no store front's orders for now (issue 32); with Retry-After. */
  kitchen_busy: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string };
}

/**
 * Refusals only the kitchen screen meets (its channels, never the public API), with the status the
 * kitchen's HTTP transport answers them with. With ERROR_STATUS, these are every code a kitchen
 * screen must translate.
 */
export const KITCHEN_ERROR_STATUS = {
  /** An item bump on a delivered or cancelled order (recall it first). */
  ticket_finished: 409,
  /** A recall of an order that is still on the board. */
  ticket_not_finished: 409,
  /** No protected storage (keychain, DPAPI, Secret Service) for the platform key or SMTP password. */
  secure_storage_unavailable: 503,
  backup_unavailable: 503,
  mail_unavailable: 503,
  /** This host keeps no payment credentials (Ajustes → Pagos en línea). */
  online_payments_unavailable: 503,
  platform_key_missing: 409,
  /** Said by the transport, not the engine: the engine could not be reached at all. */
  engine_unreachable: 503,
  /** A browser without a valid device token (never paired, or revoked): it shows the pairing page. */
  device_unpaired: 401,
  /** Every live stream the engine keeps is taken: the screen tries again later. */
  too_many_streams: 503,
  /** A desktop-only channel asked for by a tablet: it does not exist on the HTTP transport. */
  desktop_only: 404,
  /** This host serves no kitchen screens, so it cannot pair one. */
  pairing_unavailable: 503,
} as const;

export type KitchenOnlyErrorCode = keyof typeof KITCHEN_ERROR_STATUS;
export type KitchenErrorCode = ErrorCode | KitchenOnlyErrorCode;

/** Said to a browser whose device token is missing or revoked: the screen drops to its pairing page. */
export const DEVICE_UNPAIRED = 'device_unpaired' satisfies KitchenOnlyErrorCode;

const KITCHEN_ERROR_CODES = [...ERROR_CODES, ...(Object.keys(KITCHEN_ERROR_STATUS) as KitchenOnlyErrorCode[])] as KitchenErrorCode[];

export function isKitchenErrorCode(value: unknown): value is KitchenErrorCode {
  return typeof value === 'string' && (KITCHEN_ERROR_CODES as string[]).includes(value);
}
