// A line started at its station (issue 32): "▶ en curso · 3 min" over the line's own box, so that
// starting it moves nothing (its height was planned without the mark). Its own component: the
// minutes change once a minute, and only this span re-renders for them.
import { memo } from 'react';
import { useClock, useT } from '../app-context.tsx';

/** `since`: when it was started, on the screen's clock (null: not known yet, said without minutes). */
export const StartedMark = memo(function StartedMark({ since }: { since: number | null }) {
  const t = useT();
  const minutes = useClock((now) => (since === null ? 0 : Math.max(0, Math.floor((now - since) / 60_000))));
  return (
    <span className="item-started" data-testid="started-mark" data-minutes={minutes}>
      {minutes > 0 ? t('ticket.started_for', { minutes }) : t('ticket.started')}
    </span>
  );
});
