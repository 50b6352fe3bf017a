// An online order's payment session is written with the order, before its provider is asked
// (after the commit): `opening` = 1 until the provider answered with the payment page.
export default /* sql */ `
ALTER TABLE payment_sessions ADD COLUMN opening INTEGER NOT NULL DEFAULT 0 CHECK (opening IN (0, 1));
CREATE INDEX payment_sessions_opening ON payment_sessions (created_at) WHERE opening = 1;
`;
