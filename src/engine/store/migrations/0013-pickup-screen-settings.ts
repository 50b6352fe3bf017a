// A restaurant's pickup screen settings (issue 22): the privacy choices of the screen customers read.
// Set by the restaurant CLI and the desktop's Pantallas de cocina; a restaurant without a row gets
// the defaults (no names, pickup orders only, Spanish). Kept apart from kitchen_settings, which an
// import of the restaurant file replaces whole.
export default /* sql */ `
CREATE TABLE pickup_screen_settings (
  restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(id),
  show_first_name INTEGER NOT NULL CHECK (show_first_name IN (0, 1)),
  order_types TEXT NOT NULL CHECK (order_types IN ('pickup', 'pickup_and_delivery')),
  language TEXT NOT NULL CHECK (language IN ('es', 'en')),
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
`;
