// Issue 34: the "agotado" marks (sold_out) join the tables a node keeps (config-tables.ts): every
// order reads its location's marks, and only a manager's or the kitchen's switch writes them. The
// same row trigger as migration 0012's tables moves `config_version`, so a mark set on node A is read
// by node B's next order even before B hears of it. (0013 is the hub key rate budget's, issue 35.)
export default /* sql */ `
CREATE TRIGGER config_version_moved AFTER INSERT OR UPDATE OR DELETE ON sold_out
  FOR EACH ROW EXECUTE FUNCTION config_version_moved();
`;
