import { LOCALE_OF, type Language } from '../../shared/locale.ts';

const locale = (language: Language) => LOCALE_OF[language];

/** 21:30 in the restaurant's time zone. */
export function formatClock(at: string | number, timeZone: string, language: Language): string {
  const date = typeof at === 'number' ? new Date(at) : new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale(language), { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
}

/** "sáb 21 nov, 21:30" */
export function formatDateTime(at: string | number, timeZone: string, language: Language): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale(language), {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(date);
}

export function formatMinutes(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return `${minutes} min`;
}

/** $4.980 (es-CL) or CLP 4,980 (en-GB): the order's money is whole pesos. */
export function formatMoney(amount: number, language: Language): string {
  return new Intl.NumberFormat(LOCALE_OF[language], { style: 'currency', currency: 'CLP', maximumFractionDigits: 0 }).format(amount);
}
