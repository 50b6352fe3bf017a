import Type from 'typebox';
import { DateTimeOut, Nullable, Uuid } from './common.ts';

export const LOCATION_REASONS = [
  'caja_abierta',
  'caja_cerrada',
  'dentro_del_horario',
  'fuera_del_horario',
  'sucursal_desactivada',
] as const;

export const LocationStatus = Type.Object({
  location_id: Type.String(),
  name: Type.String(),
  address: Type.String(),
  is_active: Type.Boolean(),
  open_now: Type.Boolean(),
  reason: Type.Enum([...LOCATION_REASONS]),
  next_opening_at: Nullable(DateTimeOut('Next opening per the weekly schedule; null while open and in manual mode.')),
});

export const LocationStatusResult = Type.Object({
  ...LocationStatus.properties,
  simulated: Type.Optional(Type.Boolean({ description: 'Present (true) for sandbox keys: nothing was changed.' })),
});

export const LocationList = Type.Object({
  register_mode: Type.Enum(['manual', 'schedule']),
  checked_at: DateTimeOut(),
  data: Type.Array(LocationStatus),
});

export const LocationIdParams = Type.Object({ location_id: Uuid() });
