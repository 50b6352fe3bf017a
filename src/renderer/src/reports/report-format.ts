// How the Informes screen writes its numbers and times: minutes with one decimal in the screen's
// locale, local clock times in the restaurant's zone, and the days a period starts from.
import type { Language } from '../../../shared/locale.ts';
import { LOCALE_OF } from '../../../shared/locale.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Seconds as minutes, one decimal at most ("12,5" in Spanish); "—" for none. */
export function minutes(seconds: number | null, language: Language): string {
  if (seconds === null) return '—';
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_OF[language], { maximumFractionDigits: 1 });
    numberFormats.set(language, format);
  }
  return format.format(seconds / 60);
}

/** A share 0–1 as a whole percentage. */
export const percent = (share: number | null): string => (share === null ? '—' : String(Math.round(share * 100)));

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per locale and options, kept: building an Intl.DateTimeFormat costs far more than
 * formatting with one (a list of 500 left-out bumps built 500 of them on every render).
 */
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u001f${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** "21:30" (or "sáb 21 nov, 21:30" with the day) of an ISO instant, in the restaurant's zone. */
export function clockOf(iso: string, timeZone: string, language: Language, withDay = false): string {
  const options: Intl.DateTimeFormatOptions = withDay
    ? { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false }
    : { timeZone, hour: '2-digit', minute: '2-digit', hour12: false };
  return dateFormat(LOCALE_OF[language], options).format(new Date(iso));
}

/** The local date (YYYY-MM-DD) in `timeZone`, `daysBack` days before `now`. */
export function localDay(now: number, timeZone: string, daysBack = 0): string {
  const day = dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
  return daysBefore(day, daysBack);
}

/** The calendar date (YYYY-MM-DD) `days` days before `day`. */
export function daysBefore(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

/** A local date (YYYY-MM-DD) as the screen writes it: 28-11-2026 in Spanish (es-CL), 28/11/2026 in English (en-GB). */
export function formatDay(day: string, language: Language): string {
  const [y, m, d] = day.split('-');
  return language === 'es' ? `${d}-${m}-${y}` : `${d}/${m}/${y}`;
}

/** What the manager typed as a date (day first: 28-11-2026, 28/11/2026, 28.11.2026; or 2026-11-28), as YYYY-MM-DD; null when it is not a date that exists. */
export function parseDay(text: string): string | null {
  const trimmed = text.trim();
  const dayFirst = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(trimmed);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const [y, m, d] = dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]].map(Number) : iso ? [iso[1], iso[2], iso[3]].map(Number) : [];
  if (y === undefined || m === undefined || d === undefined) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}
