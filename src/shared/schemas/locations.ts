import Type from 'typebox';
import { DateTimeOut, named, Nullable, Uuid, UuidOut } from './common.ts';

const LOCATION_REASONS = [
  'caja_abierta',
  'caja_cerrada',
  'dentro_del_horario',
  'fuera_del_horario',
  'sucursal_desactivada',
] as const;

export const LocationStatus = named(
  'Location',
  Type.Object({
    location_id: UuidOut(),
    name: Type.String(),
    address: Type.String(),
    is_active: Type.Boolean({ description: 'False: deactivated in the panel.' }),
    open_now: Type.Boolean(),
    reason: Type.Enum([...LOCATION_REASONS]),
    next_opening_at: Nullable(DateTimeOut('Next opening per the weekly schedule (14 days ahead at most); null while open and in manual mode.')),
    kitchen_busy: Type.Optional(
      named(
        'KitchenBusy',
        Type.Object(
          {
            paused: Type.Boolean({ description: 'True: orders from store fronts are refused (503 `kitchen_busy`, with `Retry-After`); a POS\'s never are.' }),
            since: Nullable(DateTimeOut('When it last paused or resumed; null if never.')),
            reason: Type.Enum(['kitchen_wait', 'manager', 'none'], {
              description: '`kitchen_wait`: the promised wait stayed above the threshold; `manager`: paused or resumed from the hub; `none`: taking orders.',
            }),
            wait_minutes: Type.Integer({ minimum: 0, description: 'The wait busy mode last saw: the kitchen\'s wait with the lines of the store fronts\' orders it refused lately counted as if taken (the queue it would have if it took orders again now).' }),
            retry_after_seconds: Nullable(Type.Integer({ minimum: 0, description: 'While paused: when a store front may ask again.' })),
          },
          { description: 'Busy mode (issue 32): present where the restaurant file sets `busy_mode`, or a manager paused the location.' },
        ),
      ),
    ),
    kitchen_wait_minutes: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'GET /locations only: the kitchen\'s current wait, the promise in minutes for one typical line of the station that frees last (see POST /ready-time-quotes for a whole cart).',
      }),
    ),
  }),
);

export const LocationStatusResult = named(
  'LocationChange',
  Type.Intersect([
    LocationStatus,
    Type.Object({ simulated: Type.Optional(Type.Boolean({ description: 'Present (true) for sandbox keys: nothing was changed.' })) }),
  ]),
);

export const LocationList = named(
  'LocationList',
  Type.Object({
    register_mode: Type.Enum(['manual', 'schedule'], { description: '`manual`: opened by the day\'s cash register; `schedule`: weekly schedule plus exceptions.' }),
    checked_at: DateTimeOut('When the live status was evaluated.'),
    data: Type.Array(LocationStatus),
  }),
);

export const LocationIdParams = Type.Object({ location_id: Uuid('The location\'s id.') });
