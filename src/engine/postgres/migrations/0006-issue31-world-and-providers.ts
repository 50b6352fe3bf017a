// SQLite's 0021 (issue 31) on PostgreSQL: an API key's world is the column `world` (was `mode`).
export default /* sql */ `
ALTER TABLE api_keys RENAME COLUMN mode TO world;
ALTER TABLE api_keys RENAME CONSTRAINT api_keys_mode_check TO api_keys_world_check;
`;
