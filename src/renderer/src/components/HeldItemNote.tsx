// A line held back so that its order's items finish together (issue 32): the engine fires it to its
// station at `at` at the latest; until then the cook reads "retenido hasta HH:MM" beside it
// (short, and not "en espera", which the menu says of scheduled orders: on a phone the longer text
// wrapped every held line and took the rush's second ticket off the first page).
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useBoard, useSettings, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';

/** `hidden`: the line was started meanwhile; the note keeps its room (nothing moves) but says nothing. */
export function HeldItemNote({ at, hidden = false }: { at: number; hidden?: boolean }) {
  const t = useT();
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const language = useSettings((s) => s.settings.language);
  return (
    <span className="held-item-note" data-testid="held-item" data-fire-at={at} style={hidden ? { visibility: 'hidden' } : undefined} aria-hidden={hidden || undefined}>
      {t('ticket.held_line', { time: formatClock(at, timeZone, language) })}
    </span>
  );
}
