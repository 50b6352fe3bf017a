// The kitchen's own events travel under the names they are stored under, and every one of them
// stays out of the API's change feed (the events store leaves out the kitchen's prefix).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KITCHEN_EVENTS } from '../../../src/shared/screen-contract/kitchen.ts';
import { KITCHEN_EVENT_PREFIX } from '../../../src/engine/store/events-store.ts';
import { EVENT_TYPES } from '../../../src/shared/schemas/events.ts';

test("every kitchen event carries the prefix the API's feed leaves out, and none is an API event", () => {
  for (const type of Object.values(KITCHEN_EVENTS)) {
    assert.ok(type.startsWith(KITCHEN_EVENT_PREFIX), type);
    assert.ok(!(EVENT_TYPES as readonly string[]).includes(type), type);
  }
  for (const type of EVENT_TYPES) assert.ok(!type.startsWith(KITCHEN_EVENT_PREFIX), type);
});
