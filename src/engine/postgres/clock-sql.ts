// Issue 34: what a restaurant's clock row (restaurant_clocks, migration 0002) hands out, written
// once for the storage port (postgres-storage.ts) and the stores (stores/): the feed's sequence and
// the order numbers. Each statement updates the row, so it holds it to the commit: the restaurant's
// writes that take a number or append an event commit one after another, and the numbers are
// gapless and in commit order. Each is an upsert, so a restaurant whose row is not there yet (a
// store used outside the port's write, which takes the row first) gets it with its first number.

/** Takes the row first (before the work of a write): it is locked to the commit. Returns the feed's last sequence. */
export const TAKE_CLOCK_SQL = `INSERT INTO restaurant_clocks (restaurant_id) VALUES ($1)
  ON CONFLICT (restaurant_id) DO UPDATE SET restaurant_id = excluded.restaurant_id RETURNING last_event_seq`;

/**
 * TAKE_CLOCK_SQL for a restaurant that may not exist (the engine's use cases take it before they
 * check it): an unknown one takes nothing, and the use case refuses it as it would anyway.
 */
export const TAKE_KNOWN_CLOCK_SQL = `INSERT INTO restaurant_clocks (restaurant_id) SELECT id FROM restaurants WHERE id = $1
  ON CONFLICT (restaurant_id) DO UPDATE SET restaurant_id = excluded.restaurant_id`;

/** The world's next order number ($1: restaurant); `n` is the number taken. */
export const TAKE_LIVE_NUMBER_SQL = `INSERT INTO restaurant_clocks (restaurant_id, next_order_number) VALUES ($1, 2)
  ON CONFLICT (restaurant_id) DO UPDATE SET next_order_number = restaurant_clocks.next_order_number + 1
  RETURNING next_order_number - 1 AS n`;

export const TAKE_TEST_NUMBER_SQL = `INSERT INTO restaurant_clocks (restaurant_id, next_test_order_number) VALUES ($1, 2)
  ON CONFLICT (restaurant_id) DO UPDATE SET next_test_order_number = restaurant_clocks.next_test_order_number + 1
  RETURNING next_test_order_number - 1 AS n`;

/** Appends an event ($1 restaurant, $2 world, $3 type, $4 created_at, $5 data) numbered by the row; returns its `seq`. */
export const APPEND_EVENT_SQL = `WITH clock AS (
    INSERT INTO restaurant_clocks (restaurant_id, last_event_seq) VALUES ($1, 1)
    ON CONFLICT (restaurant_id) DO UPDATE SET last_event_seq = restaurant_clocks.last_event_seq + 1
    RETURNING last_event_seq
  )
  INSERT INTO events (seq, restaurant_id, world, type, created_at, data)
  SELECT last_event_seq, $1, $2, $3, $4, $5 FROM clock RETURNING seq`;

/** The restaurant's last event sequence (no row: none yet). */
export const LAST_EVENT_SEQ_SQL = 'SELECT last_event_seq FROM restaurant_clocks WHERE restaurant_id = $1';
