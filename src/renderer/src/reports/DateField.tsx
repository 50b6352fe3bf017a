// A period's date as the screen's language writes it (issue 33): Chromium's own date input shows the
// browser's locale (11/28/2026 on an English system) whatever the screen's language. A text field
// in dd-mm-aaaa (es-CL) or dd/mm/yyyy (en-GB), taken once it is a date within the bounds, beside a
// button that opens the browser's calendar.
import { useEffect, useRef, useState } from 'react';
import type { Language } from '../../../shared/locale.ts';
import { formatDay, parseDay } from './report-format.ts';

export function DateField(props: { testId: string; value: string; min?: string; max?: string; language: Language; calendarLabel: string; onChange: (day: string) => void }) {
  const { testId, value, min, max, language, calendarLabel, onChange } = props;
  const [draft, setDraft] = useState(() => formatDay(value, language));
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => setDraft(formatDay(value, language)), [value, language]);
  const within = (day: string | null): day is string => day !== null && (min === undefined || day >= min) && (max === undefined || day <= max);
  const typed = parseDay(draft);
  return (
    <span className="date-field">
      <input
        type="text"
        inputMode="numeric"
        size={10}
        data-testid={testId}
        value={draft}
        placeholder={language === 'es' ? 'dd-mm-aaaa' : 'dd/mm/yyyy'}
        aria-invalid={!within(typed)}
        onChange={(e) => {
          setDraft(e.target.value);
          const day = parseDay(e.target.value);
          if (within(day) && day !== value) onChange(day);
        }}
        onBlur={() => setDraft(formatDay(value, language))}
      />
      <input ref={picker} type="date" className="date-picker" tabIndex={-1} aria-hidden="true" value={value} min={min} max={max} onChange={(e) => within(e.target.value) && onChange(e.target.value)} />
      <button type="button" className="btn btn-icon" aria-label={calendarLabel} data-testid={`${testId}-calendar`} onClick={() => picker.current?.showPicker()}>
        {/* Drawn, not an emoji: a machine without an emoji font showed an empty box. */}
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="2" y="3" width="12" height="11" rx="1.5" />
          <path d="M2 6.5h12M5.5 1.5v3M10.5 1.5v3" />
        </svg>
      </button>
    </span>
  );
}
