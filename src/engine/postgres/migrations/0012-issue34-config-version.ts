// Issue 34: one number that moves with every commit writing a table a node keeps in memory
// (config-tables.ts lists the same tables; a test holds the two lists equal). A transaction reads it
// once (beside its restaurant's clock row) and uses what its node kept at that number, or reads the
// rows afresh: a price changed on node A is read by node B's next order, whether or not B heard A's
// notification yet. Row triggers, so a statement that changes no row moves nothing; an API key's last
// use (the jobs' `last_used_at`) is left out. One row for all restaurants: configuration writes are
// rare and wait for each other's commit, orders never take it.
const TABLES = [
  'restaurants', 'locations', 'location_exceptions', 'categories', 'products', 'modifier_groups', 'modifier_options',
  'api_key_channel_kinds', 'payment_credentials', 'kitchen_settings', 'kitchen_station_cooks', 'printers',
];

export default /* sql */ `
CREATE TABLE config_version (
  id smallint PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO config_version (id, version) VALUES (1, 1);

CREATE FUNCTION config_version_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE config_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;
${TABLES.map((table) => `
CREATE TRIGGER config_version_moved AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION config_version_moved();`).join('')}
CREATE TRIGGER config_version_moved AFTER INSERT OR DELETE OR UPDATE OF id, restaurant_id, lookup, salt, hash, world, can_write, label, last4, created_at, revoked_at ON api_keys
  FOR EACH ROW EXECUTE FUNCTION config_version_moved();
`;
