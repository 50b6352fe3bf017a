// Issue 33 (Informes, busy mode's timeline): the orders busy mode refused. A refused order's
// transaction is undone, so the refusal is noted in memory and written here by the jobs runner
// (domain/busy-refusals.ts): one row per location, world and minute, a count and the minute's first
// orders (JSON). Number 21 (issue 33; the lead renumbers on merge if another branch took it).
export default /* sql */ `
CREATE TABLE busy_refusals (
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  location_id TEXT NOT NULL,
  test INTEGER NOT NULL CHECK (test IN (0, 1)),
  minute INTEGER NOT NULL,
  refused INTEGER NOT NULL,
  listed TEXT NOT NULL,
  PRIMARY KEY (location_id, test, minute)
);
CREATE INDEX busy_refusals_by_restaurant ON busy_refusals (restaurant_id, minute);
`;
