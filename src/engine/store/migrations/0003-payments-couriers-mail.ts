// Online payments' outcome, courier deliveries and the customer mail outbox; indexes for the jobs
// that cancel unpaid orders and release scheduled ones.
export default /* sql */ `
-- How a payment session ended: the method the customer paid with, or why it closed unpaid.
ALTER TABLE payment_sessions ADD COLUMN paid_method TEXT;
ALTER TABLE payment_sessions ADD COLUMN closed_reason TEXT CHECK (closed_reason IN ('expired', 'cancelled'));

-- One courier delivery per courier-delivered order, from its first dispatch attempt on.
-- status: fallido (dispatch failed, retried while the order is listo), then as the courier
-- reports it: pendiente, asignado, en_camino, entregado, cancelado.
CREATE TABLE courier_deliveries (
  order_id TEXT PRIMARY KEY REFERENCES orders(id),
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('fallido', 'pendiente', 'asignado', 'en_camino', 'entregado', 'cancelado')),
  delivery_id TEXT,                    -- the courier's own id, once dispatched
  tracking_url TEXT,
  attempts INTEGER NOT NULL DEFAULT 0, -- dispatch attempts
  next_check_at INTEGER,               -- when the job looks at it again (retry or status check); NULL = done
  last_error TEXT,
  dispatched_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX courier_deliveries_due ON courier_deliveries (next_check_at) WHERE next_check_at IS NOT NULL;

-- Mails to customers, written in the transaction of the change that causes them.
-- status: pending (to send; retried with backoff), sent, failed (gave up), sandbox (test order: recorded, never sent).
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  kind TEXT NOT NULL,
  test INTEGER NOT NULL,
  to_address TEXT NOT NULL,
  from_name TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_text TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'sandbox')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER,
  UNIQUE (order_id, kind)
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_by_restaurant ON mail_outbox (restaurant_id, created_at DESC, id DESC);

CREATE INDEX orders_awaiting_payment ON orders (restaurant_id, created_at) WHERE status = 'pendiente_pago';
CREATE INDEX orders_scheduled ON orders (location_id, scheduled_for) WHERE status = 'programado';
`;
