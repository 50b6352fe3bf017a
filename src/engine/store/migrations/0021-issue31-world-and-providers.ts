// Issue 31. An API key's live/test world is named `world`, as everywhere in the code (the column was
// `mode`); SQLite renames it in the table's CHECK too.
export default /* sql */ `
ALTER TABLE api_keys RENAME COLUMN mode TO world;
`;
