// The languages the kitchen screen speaks and the time zone assumed when none is given: one place
// for the engine, the settings and the screen.

/** Spanish (es-CL) first, English second. */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

/** The BCP 47 locale each language formats dates and money with. */
export const LOCALE_OF: Record<Language, string> = { es: 'es-CL', en: 'en-GB' };

/** The restaurant's zone when it names none (the API speaks Chilean time). */
export const DEFAULT_TIME_ZONE = 'America/Santiago';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
