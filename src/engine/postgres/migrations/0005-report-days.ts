// SQLite's 0020 (issue 33, Informes' long ranges) on PostgreSQL: each closed day's report inputs.
// The same columns; a cache the SQLite engine fills and empties (its triggers on the item timing
// log and the promises), so no trigger here: a file moved to PostgreSQL carries its rows as data.
export default /* sql */ `
CREATE TABLE kitchen_report_days (
  restaurant_id text NOT NULL REFERENCES restaurants(id),
  location_id text NOT NULL,
  test bigint NOT NULL CHECK (test IN (0, 1)),
  day text NOT NULL,
  time_zone text NOT NULL,
  read_from bigint NOT NULL,
  read_to bigint NOT NULL,
  cooks text NOT NULL,
  format bigint NOT NULL,
  summary text NOT NULL,
  computed_at bigint NOT NULL,
  UNIQUE (restaurant_id, location_id, test, day)
);
CREATE INDEX kitchen_report_days_by_span ON kitchen_report_days (restaurant_id, read_to);
CREATE INDEX kitchen_report_days_by_location ON kitchen_report_days (location_id, read_to);
`;
