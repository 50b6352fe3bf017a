// Issue 34: SQLite 0023's twin, a courier delivery's claim (store/migrations/0023-issue34-courier-claims.ts):
// the lease's end a node's claim set, the token its outcome is recorded under.
export default /* sql */ `
ALTER TABLE courier_deliveries ADD COLUMN claimed_until bigint;
`;
