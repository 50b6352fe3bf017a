// Refusals of the IPC layer that are not API errors, and the failure envelope of every answer.
import type { KitchenOnlyErrorCode } from '../../shared/error-codes.ts';
import type { ScreenFailure } from '../../shared/screen-contract/contract.ts';
import { ApiError, KitchenError } from '../domain/errors.ts';

const SECURE_STORAGE_UNAVAILABLE = 'secure_storage_unavailable' satisfies KitchenOnlyErrorCode;

export const secureStorageUnavailable = (what = 'the platform key') =>
  new KitchenError(
    SECURE_STORAGE_UNAVAILABLE,
    `this system offers no protected storage (keychain, DPAPI or a Secret Service), so ${what} was not saved`,
  );

/** The failure a screen may show: the engine's and the app's refusals verbatim, anything else hidden. */
export function toFailure(error: unknown, log?: (error: unknown) => void): ScreenFailure {
  if (error instanceof ApiError || error instanceof KitchenError) return { code: error.code, message: error.message };
  log?.(error);
  return { code: 'internal_error', message: 'internal error; the action was not completed' };
}
