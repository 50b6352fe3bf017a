// The typebox-free names the screen loads first (issue 28: typebox out of the app's first chunk) are
// the channel table's own: the bridge's method map and the kitchen's channels, read at run time too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BRIDGE_METHODS, KITCHEN_CHANNELS, SCREEN_CHANNELS } from '../../src/shared/screen-contract/contract.ts';
import { BRIDGE_METHOD_CHANNELS } from '../../src/shared/screen-contract/bridge-methods.ts';
import { isKitchenChannelName } from '../../src/renderer/src/transport/kitchen-channels.ts';

test("the bridge's methods call the table's channels, every one", () => {
  assert.deepEqual({ ...BRIDGE_METHOD_CHANNELS }, { ...BRIDGE_METHODS });
});

test("the browser transport's kitchen channels are the table's: a tablet is refused the desktop's own", () => {
  assert.deepEqual(SCREEN_CHANNELS.filter(isKitchenChannelName), [...KITCHEN_CHANNELS]);
  assert.ok(SCREEN_CHANNELS.some((channel) => !isKitchenChannelName(channel)), 'the desktop has channels of its own');
});
