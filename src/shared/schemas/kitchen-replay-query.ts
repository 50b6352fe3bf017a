// What the replay of a service is asked for (issue 33): a location and a local day. Apart from the
// replay's types so that the screens' channel table, which the kitchen board's bundle carries, takes these few lines only.
import Type, { type Static } from 'typebox';
import { named, Uuid } from './common.ts';

export const KitchenReplayQuery = named(
  'KitchenReplayQuery',
  Type.Object(
    {
      location_id: Uuid('The location replayed.'),
      day: Type.String({
        pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
        description: 'The day of the service, local to the restaurant (YYYY-MM-DD).',
        'x-message': 'day must be a date YYYY-MM-DD',
      }),
    },
    { additionalProperties: false },
  ),
);
export type KitchenReplayQuery = Static<typeof KitchenReplayQuery>;
