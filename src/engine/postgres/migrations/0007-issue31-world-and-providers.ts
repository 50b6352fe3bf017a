// SQLite's 0022 (issue 31) on PostgreSQL: an API key's world is the column `world` (was `mode`), and
// a payment provider is any name the registry knows (the CHECK listing 'mercadopago' goes).
export default /* sql */ `
ALTER TABLE api_keys RENAME COLUMN mode TO world;
ALTER TABLE api_keys RENAME CONSTRAINT api_keys_mode_check TO api_keys_world_check;
ALTER TABLE payment_credentials DROP CONSTRAINT payment_credentials_provider_check;
ALTER TABLE payment_credentials ADD CONSTRAINT payment_credentials_provider_check CHECK (length(provider) BETWEEN 1 AND 40);
`;
