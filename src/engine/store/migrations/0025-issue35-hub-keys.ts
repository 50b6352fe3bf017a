// Issue 35: a key's kind. `client` (every key before this one: a store front, a POS, an integration)
// spends the per-key rate budget; `hub` (a restaurant's replica pushing its outbox upstream) spends a
// budget of its own, sized for the backlog a hub brings back after an outage or a failover, so that a
// hub is never refused by the limits meant for store fronts. PostgreSQL's twin is
// postgres/migrations/0013-issue35-hub-keys.ts.
export default /* sql */ `
ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'client' CHECK (kind IN ('client', 'hub'));
`;
