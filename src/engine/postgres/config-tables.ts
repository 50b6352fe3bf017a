// Issue 34: the tables a node keeps in memory between commits (the restaurant, its locations, its
// catalogue, its kitchen's settings, cooks and printers, API keys, payment credentials, the "agotado"
// marks), written rarely (a manager's change, an import, a key revoked, a dish switched sold out) and read by every order. A commit that wrote
// one of them is a configuration commit: it moves the database's `config_version` (migration 0012's
// triggers, on these same tables) and is announced as such to every node ('config', feed-listener.ts),
// (migration 0014's trigger for sold_out), which then drops what it kept. Every other commit (orders, events, stock, the kitchen's lines)
// leaves the kept reads as they are. A test holds this list equal to the triggers'.

/** The tables whose rows a node keeps (config-cache.ts), each with a trigger moving `config_version`. */
export const CONFIG_TABLES = [
  'restaurants',
  'locations',
  'location_exceptions',
  'categories',
  'products',
  'modifier_groups',
  'modifier_options',
  'api_keys',
  'api_key_channel_kinds',
  'payment_credentials',
  'kitchen_settings',
  'kitchen_station_cooks',
  'printers',
  'sold_out',
] as const;

/**
 * A key's last use (written by the jobs runner, about once a minute per key in use) changes nothing
 * a node keeps: it is not a configuration write (the trigger on api_keys leaves this column out too).
 */
const KEY_USE = /^\s*UPDATE\s+api_keys\s+SET\s+last_used_at\s*=\s*\$\d+\s+WHERE/i;

const WRITE = new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|TRUNCATE(?:\\s+TABLE)?)\\s+"?(${CONFIG_TABLES.join('|')})"?\\b`, 'i');

/** Whether a statement may write one of the kept tables (any of its parts: a CTE's write counts). */
export function writesConfig(sql: string): boolean {
  return WRITE.test(sql) && !KEY_USE.test(sql);
}
