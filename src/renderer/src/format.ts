import { LOCALE_OF, type Language } from '../../shared/locale.ts';

// Intl formatters are costly to build (a board of 500 tickets formats on every change): one per
// language, zone and shape, kept.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** 21:30 in the restaurant's time zone. */
export function formatClock(at: string | number, timeZone: string, language: Language): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return cached(`clock|${language}|${timeZone}`, () => new Intl.DateTimeFormat(LOCALE_OF[language], { timeZone, hour: '2-digit', minute: '2-digit', hour12: false })).format(date);
}

/** "sáb 21 nov, 21:30" */
export function formatDateTime(at: string | number, timeZone: string, language: Language): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return cached(
    `datetime|${language}|${timeZone}`,
    () =>
      new Intl.DateTimeFormat(LOCALE_OF[language], {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }),
  ).format(date);
}

export function formatMinutes(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return `${minutes} min`;
}

/** $4.980 (es-CL) or CLP 4,980 (en-GB): the order's money is whole pesos. */
export function formatMoney(amount: number, language: Language): string {
  return cached(`money|${language}`, () => new Intl.NumberFormat(LOCALE_OF[language], { style: 'currency', currency: 'CLP', maximumFractionDigits: 0 })).format(amount);
}
