// Issue 35: SQLite 0025's twin (store/migrations/0025-issue35-hub-keys.ts): a key's kind, `client` or
// `hub`, which picks its rate budget.
export default /* sql */ `
ALTER TABLE api_keys ADD COLUMN kind text NOT NULL DEFAULT 'client' CHECK (kind IN ('client', 'hub'));
`;
