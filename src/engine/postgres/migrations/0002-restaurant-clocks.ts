// Issue 34. Each restaurant's clock row: the first row every write of the restaurant takes
// (`UPDATE … RETURNING`, so it is locked until the commit). Holding it orders the restaurant's writes,
// so the feed's sequence it hands out is gapless and in commit order (a plain sequence hands numbers
// out at insert: a slow writer's lower number would commit after a fast writer's higher one, and a
// reader whose cursor passed it would never see it); the same row hands out the order numbers.
export default /* sql */ `
CREATE TABLE restaurant_clocks (
  restaurant_id text PRIMARY KEY REFERENCES restaurants(id),
  last_event_seq bigint NOT NULL DEFAULT 0,
  next_order_number bigint NOT NULL DEFAULT 1,
  next_test_order_number bigint NOT NULL DEFAULT 1
);
`;
