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
