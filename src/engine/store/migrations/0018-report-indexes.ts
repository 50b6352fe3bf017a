// Issue 33 (Informes): what the reports read by time. A location's promises by when the order was
// made (order_promises had them by ready time only), and busy mode's pauses and resumes (the
// `location.updated` events) by time, without walking every event of the restaurant.
export default /* sql */ `
CREATE INDEX order_promises_by_created ON order_promises (location_id, created_at);
CREATE INDEX events_location_updates ON events (restaurant_id, created_at) WHERE type = 'location.updated';
`;
