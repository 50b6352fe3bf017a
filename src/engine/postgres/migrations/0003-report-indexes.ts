// SQLite's 0018 (issue 33, Informes) on PostgreSQL: what the reports read by time — a location's
// promises by when the order was made, and busy mode's pauses and resumes without walking every event.
export default /* sql */ `
CREATE INDEX order_promises_by_created ON order_promises (location_id, created_at);
CREATE INDEX events_location_updates ON events (restaurant_id, created_at) WHERE type = 'location.updated';
`;
