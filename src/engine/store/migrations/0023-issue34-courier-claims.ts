// Issue 34: a courier delivery's claim, its own column. A node that takes a delivery for a courier
// call (dispatch, status, cancellation) sets `claimed_until` to its lease's end; the call's outcome is
// recorded only while the row still holds that value (the claim's fencing token), and recording it
// clears the claim. `next_check_at` could not be the token: cancelling an order moves it while a
// dispatch is under way. Number 23 (issue 34; the lead renumbers on merge if another branch took it);
// PostgreSQL's twin is postgres/migrations/0010-issue34-courier-claims.ts.
export default /* sql */ `
ALTER TABLE courier_deliveries ADD COLUMN claimed_until INTEGER;
`;
