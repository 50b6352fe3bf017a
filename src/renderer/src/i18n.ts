// The screen's words: Spanish first, English second, each a complete record of every text key
// (src/renderer/src/locales), and the sentence a cook reads for each refusal code.
import type { KitchenErrorCode } from '../../shared/error-codes.ts';
import type { Language } from '../../shared/locale.ts';
import { en } from './locales/en.ts';
import { es, type TextKey } from './locales/es.ts';

export type { TextKey };

const dictionaries: Record<Language, Record<TextKey, string>> = { es, en };

/**
 * `{count?pedido nuevo|pedidos nuevos}`: the first form for exactly one, the second for any other
 * number (Spanish and English agree: "1 pedido", "0 pedidos", "2 orders"), instead of "pedido(s)".
 */
const PLURAL = /\{(\w+)\?([^|{}]*)\|([^{}]*)\}/g;

export function translate(language: Language, key: TextKey, vars: Record<string, string | number> = {}): string {
  // A key built from a code the screen has no words for comes back as itself (see `label` uses).
  const text: string | undefined = dictionaries[language][key];
  return (text ?? key)
    .replace(PLURAL, (whole, name: string, one: string, other: string) => (name in vars ? (Number(vars[name]) === 1 ? one : other) : whole))
    .replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export type Translate = (key: TextKey, vars?: Record<string, string | number>) => string;

/** Why a tap did not go through: an engine or kitchen code, or the engine out of reach. */
export type RefusalCode = KitchenErrorCode | 'unreachable';

const REFUSALS: Record<RefusalCode, TextKey> = {
  invalid_request: 'refusal.invalid_request',
  unauthorized: 'refusal.unauthorized',
  forbidden: 'refusal.forbidden',
  not_found: 'refusal.not_found',
  location_closed: 'refusal.location_closed',
  location_inactive: 'refusal.location_inactive',
  insufficient_stock: 'refusal.insufficient_stock',
  illegal_transition: 'refusal.illegal_transition',
  managed_by_integrator: 'refusal.managed_by_integrator',
  state_conflict: 'refusal.state_conflict',
  rate_limited: 'refusal.rate_limited',
  payment_unavailable: 'refusal.payment_unavailable',
  storage_full: 'refusal.storage_full',
  storage_damaged: 'refusal.storage_damaged',
  // The platform's database switching over: the tap is tried again, as when the engine is out of reach.
  storage_unavailable: 'refusal.unreachable',
  // Only store fronts' new orders meet it, never a kitchen's tap.
  kitchen_busy: 'refusal.internal_error',
  internal_error: 'refusal.internal_error',
  ticket_finished: 'refusal.ticket_finished',
  ticket_not_finished: 'refusal.ticket_not_finished',
  secure_storage_unavailable: 'refusal.internal_error',
  backup_unavailable: 'refusal.internal_error',
  mail_unavailable: 'refusal.internal_error',
  online_payments_unavailable: 'refusal.internal_error',
  platform_key_missing: 'refusal.internal_error',
  engine_unreachable: 'refusal.unreachable',
  device_unpaired: 'refusal.device_unpaired',
  desktop_only: 'refusal.forbidden',
  pairing_unavailable: 'refusal.unreachable',
  too_many_streams: 'refusal.unreachable',
  unreachable: 'refusal.unreachable',
};

/** The refusal as a sentence in the screen's language; a code this screen does not know is named. */
export function refusalText(t: Translate, code: string, vars: { number: string; manager: string }): string {
  const key = (REFUSALS as Record<string, TextKey | undefined>)[code];
  return key ? t(key, vars) : t('refusal.unknown', { ...vars, code });
}
