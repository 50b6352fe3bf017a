import Type from 'typebox';
import { Text } from '../../../shared/schemas/common.ts';

/** The optional `Idempotency-Key` of every write (src/engine/http/idempotency.ts). */
export const IdempotencyHeaders = Type.Object({
  // Text: no NUL, as every text a request carries (Node's HTTP parser refuses one in a header before).
  'idempotency-key': Type.Optional(
    Text({
      minLength: 1,
      maxLength: 255,
      description: 'Replays the first answer (status and body) for 24 hours for the same key and body; the same key with another body is 409 `state_conflict`.',
      examples: ['web-cart-8841'],
      'x-message': 'Idempotency-Key must be 1 to 255 characters',
    }),
  ),
});
