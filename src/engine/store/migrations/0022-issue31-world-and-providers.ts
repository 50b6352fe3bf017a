// Issue 31. An API key's live/test world is named `world`, as everywhere in the code (the column was
// `mode`). A restaurant's payment credentials name their provider by the registry's name
// (payments/payment-providers.ts): the list of names leaves the table (it was CHECK IN
// ('mercadopago')), so a second provider is added by the registry alone; the rows are copied as
// they are. SQLite cannot drop a CHECK, hence the new table.
export default /* sql */ `
ALTER TABLE api_keys RENAME COLUMN mode TO world;

CREATE TABLE payment_credentials_by_name (
  restaurant_id TEXT NOT NULL,
  provider TEXT NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
  access_token TEXT NOT NULL,
  webhook_secret TEXT NOT NULL,
  api_base TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (restaurant_id, provider)
);
INSERT INTO payment_credentials_by_name (restaurant_id, provider, access_token, webhook_secret, api_base, created_at, updated_at)
  SELECT restaurant_id, provider, access_token, webhook_secret, api_base, created_at, updated_at FROM payment_credentials;
DROP TABLE payment_credentials;
ALTER TABLE payment_credentials_by_name RENAME TO payment_credentials;
`;
