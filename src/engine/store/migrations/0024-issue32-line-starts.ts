// Issue 32: a line started at its station (the board's first tap, `items:set-started`). The screen's
// mark lives beside the line's bump (`kitchen_item_states.started_at`, null: not started there), and
// an open line says whether its start is that explicit one (`kitchen_open_items.started_explicit`):
// a ticket's move to en_preparacion is only a lower bound of a line's start, an explicit start is the
// start itself, which the promise's schedule and the firing of held lines take as it is. Number 24
// (the lead renumbers on merge if another branch took it); PostgreSQL's twin is
// postgres/migrations/0011-issue32-line-starts.ts.
export default /* sql */ `
ALTER TABLE kitchen_item_states ADD COLUMN started_at INTEGER;
ALTER TABLE kitchen_open_items ADD COLUMN started_explicit INTEGER NOT NULL DEFAULT 0 CHECK (started_explicit IN (0, 1));
`;
