// SQLite's 0021 (issue 33, busy mode's refused orders) on PostgreSQL: the same columns.
export default /* sql */ `
CREATE TABLE busy_refusals (
  restaurant_id text NOT NULL REFERENCES restaurants(id),
  location_id text NOT NULL,
  test bigint NOT NULL CHECK (test IN (0, 1)),
  minute bigint NOT NULL,
  refused bigint NOT NULL,
  listed text NOT NULL,
  PRIMARY KEY (location_id, test, minute)
);
CREATE INDEX busy_refusals_by_restaurant ON busy_refusals (restaurant_id, minute);
`;
