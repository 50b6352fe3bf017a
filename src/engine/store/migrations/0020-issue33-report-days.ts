// Issue 33 (Informes, long ranges): each closed day's report inputs, kept so that a range of 90 days
// reads 90 rows instead of every log row of the period (domain/kitchen-report/day-summary.ts). A
// row is what the item timing log said of the day's tickets when it was computed; a log row written
// later with a time inside the span the day was read from (a bump synced late) deletes it, and the
// next report computes it again. Number 20 (issue 32 took 19).
export default /* sql */ `
CREATE TABLE kitchen_report_days (
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  location_id TEXT NOT NULL,
  test INTEGER NOT NULL CHECK (test IN (0, 1)),
  day TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  -- The span of the log it was computed from: the day, 2 hours before and 2 hours after it.
  read_from INTEGER NOT NULL,
  read_to INTEGER NOT NULL,
  -- Each station's cooks on shift it was computed with (a line's start depends on them), as JSON.
  cooks TEXT NOT NULL,
  -- How summary is written (domain/kitchen-report/day-summary.ts, DAY_SUMMARY_FORMAT): another one is computed again.
  format INTEGER NOT NULL,
  summary TEXT NOT NULL,
  computed_at INTEGER NOT NULL,
  UNIQUE (restaurant_id, location_id, test, day)
);
CREATE INDEX kitchen_report_days_by_span ON kitchen_report_days (restaurant_id, read_to);
CREATE INDEX kitchen_report_days_by_location ON kitchen_report_days (location_id, read_to);
CREATE TRIGGER kitchen_report_days_late_log AFTER INSERT ON kitchen_item_timings
BEGIN
  DELETE FROM kitchen_report_days WHERE restaurant_id = NEW.restaurant_id AND read_to > NEW.at AND read_from <= NEW.at;
END;
CREATE TRIGGER kitchen_report_days_late_promise AFTER INSERT ON order_promises
BEGIN
  DELETE FROM kitchen_report_days WHERE location_id = NEW.location_id AND read_to > NEW.created_at AND read_from <= NEW.created_at;
END;
CREATE TRIGGER kitchen_report_days_promise_changed AFTER UPDATE ON order_promises
BEGIN
  DELETE FROM kitchen_report_days WHERE location_id = OLD.location_id AND read_to > OLD.created_at AND read_from <= OLD.created_at;
  DELETE FROM kitchen_report_days WHERE location_id = NEW.location_id AND read_to > NEW.created_at AND read_from <= NEW.created_at;
END;
`;
