// Issue 34: the pairing guard's bucket count in O(1) on PostgreSQL. The service caps the buckets
// (MAX_PAIRING_BUCKETS) and reads their count whenever an address has none yet; `count(*)` read every
// row. SQLite's store keeps the count in its process, which another node's buckets would not reach:
// here triggers keep a tally, so every node reads the same count in two rows. Two rows, not one:
// inserts add to 'inserted', deletes (the prunes) to 'deleted', and the count is their difference.
// A pairing attempt prunes first and inserts last, with its address's lock in between; one row
// taken by both would be held by a pruner that waits for an address another attempt holds while
// that attempt waits to insert: a deadlock. Rows already there (a database migrated with buckets)
// are counted once, here.
export default /* sql */ `
CREATE TABLE kitchen_pairing_bucket_tally (
  kind text PRIMARY KEY CHECK (kind IN ('inserted', 'deleted')),
  n bigint NOT NULL
);
INSERT INTO kitchen_pairing_bucket_tally (kind, n) VALUES ('inserted', (SELECT count(*) FROM kitchen_pairing_buckets)), ('deleted', 0);

-- Per statement, with the rows it changed: one update of a tally row per statement (a copy of
-- 20,000 rows updating it 20,000 times took over 15 s), none for a statement that changed no row.
CREATE FUNCTION kitchen_pairing_bucket_tally_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added bigint;
BEGIN
  SELECT count(*) INTO added FROM inserted_buckets;
  IF added > 0 THEN
    UPDATE kitchen_pairing_bucket_tally SET n = n + added WHERE kind = 'inserted';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER kitchen_pairing_bucket_tally_inserted AFTER INSERT ON kitchen_pairing_buckets
  REFERENCING NEW TABLE AS inserted_buckets FOR EACH STATEMENT EXECUTE FUNCTION kitchen_pairing_bucket_tally_inserted();

CREATE FUNCTION kitchen_pairing_bucket_tally_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone bigint;
BEGIN
  SELECT count(*) INTO gone FROM deleted_buckets;
  IF gone > 0 THEN
    UPDATE kitchen_pairing_bucket_tally SET n = n + gone WHERE kind = 'deleted';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER kitchen_pairing_bucket_tally_deleted AFTER DELETE ON kitchen_pairing_buckets
  REFERENCING OLD TABLE AS deleted_buckets FOR EACH STATEMENT EXECUTE FUNCTION kitchen_pairing_bucket_tally_deleted();

CREATE FUNCTION kitchen_pairing_bucket_tally_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kitchen_pairing_bucket_tally SET n = 0;
  RETURN NULL;
END $$;
CREATE TRIGGER kitchen_pairing_bucket_tally_truncated AFTER TRUNCATE ON kitchen_pairing_buckets
  FOR EACH STATEMENT EXECUTE FUNCTION kitchen_pairing_bucket_tally_truncated();
`;
