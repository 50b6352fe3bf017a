// Issue 34: SQLite 0020's triggers on PostgreSQL. A stored day (kitchen_report_days) is a cache of
// the item timing log and the promises: a late log row or promise inside its span deletes it, so
// the report reads that day afresh. 0005 left them out; without them the platform would keep
// answering a day from before its late rows.
export default /* sql */ `
CREATE FUNCTION kitchen_report_days_late_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM kitchen_report_days WHERE restaurant_id = NEW.restaurant_id AND read_to > NEW.at AND read_from <= NEW.at;
  RETURN NULL;
END $$;
CREATE TRIGGER kitchen_report_days_late_log AFTER INSERT ON kitchen_item_timings
  FOR EACH ROW EXECUTE FUNCTION kitchen_report_days_late_log();

CREATE FUNCTION kitchen_report_days_late_promise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM kitchen_report_days WHERE location_id = OLD.location_id AND read_to > OLD.created_at AND read_from <= OLD.created_at;
  END IF;
  DELETE FROM kitchen_report_days WHERE location_id = NEW.location_id AND read_to > NEW.created_at AND read_from <= NEW.created_at;
  RETURN NULL;
END $$;
CREATE TRIGGER kitchen_report_days_late_promise AFTER INSERT OR UPDATE ON order_promises
  FOR EACH ROW EXECUTE FUNCTION kitchen_report_days_late_promise();
`;
