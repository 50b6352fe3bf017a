// Online payments with a real provider (docs/payments.md): each restaurant's credentials, the
// payment actions the jobs runner performs outside any transaction (read a payment a webhook
// named, refund one), and the provider's payment that paid a session.
export default /* sql */ `
CREATE TABLE payment_credentials (
  restaurant_id TEXT NOT NULL,
  provider TEXT NOT NULL CHECK (provider IN ('mercadopago')),
  access_token TEXT NOT NULL,
  webhook_secret TEXT NOT NULL,
  api_base TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (restaurant_id, provider)
);

-- kind: check (read a payment from the provider, then apply what it says), refund (give a payment back),
-- search (ask the provider for the payments of an order whose notification never came; payment_id holds the order id).
-- status: pending (due at next_at), done, failed (given up; last_error says why).
CREATE TABLE payment_actions (
  id INTEGER PRIMARY KEY,
  restaurant_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('check', 'refund', 'search')),
  payment_id TEXT NOT NULL,            -- the provider's payment id (a search: the order's id)
  order_id TEXT,                       -- known once the payment was read
  amount INTEGER,                      -- a refund's amount (CLP)
  idempotency_key TEXT,                -- what the provider gets for a refund, the same on every attempt
  status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
  outcome TEXT,                        -- what was decided or done (confirmed, refunded, refund_requested, ...)
  provider_ref TEXT,                   -- the provider's id of a refund
  attempts INTEGER NOT NULL DEFAULT 0,
  requested INTEGER NOT NULL DEFAULT 1, -- how many times it was asked for (webhooks); one asked again mid-call is done again
  next_at INTEGER,                     -- when the runner performs it (a lease while a call is under way); NULL = nothing to do
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (restaurant_id, provider, kind, payment_id)
);
CREATE INDEX payment_actions_due ON payment_actions (next_at) WHERE next_at IS NOT NULL;

ALTER TABLE payment_sessions ADD COLUMN provider_payment_id TEXT;
CREATE INDEX payment_sessions_by_provider ON payment_sessions (provider, created_at);
`;
