// Issue 32: SQLite 0024's twin (store/migrations/0024-issue32-line-starts.ts): a line's explicit
// start, as the screen marks it and as the open line's schedule takes it.
export default /* sql */ `
ALTER TABLE kitchen_item_states ADD COLUMN started_at bigint;
ALTER TABLE kitchen_open_items ADD COLUMN started_explicit bigint NOT NULL DEFAULT 0 CHECK (started_explicit IN (0, 1));
`;
