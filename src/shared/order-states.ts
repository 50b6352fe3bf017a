// The order state machine of the API specification (section 3) plus the decisions on `programado`.
// Both the engine (which decides) and the kitchen screen (which draws the buttons) read this table.

export const ORDER_STATUSES = [
  'pendiente_pago',
  'programado',
  'recibido',
  'en_preparacion',
  'listo',
  'en_reparto',
  'entregado',
  'cancelado',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TYPES = ['delivery', 'retiro'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** The targets a PATCH (or a cook's tap) may ask for. */
export const PATCH_TARGETS = ['en_preparacion', 'listo', 'en_reparto', 'entregado', 'cancelado'] as const;
export type PatchTarget = (typeof PATCH_TARGETS)[number];

const TERMINAL_STATUSES: readonly OrderStatus[] = ['entregado', 'cancelado'];

/** Every state that is not finished: what the board shows, and what a replica's first pull fetches. */
export const ACTIVE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));

/**
 * Every transition moves an order later in ORDER_STATUSES (none goes back): a view of it in an
 * earlier state than the one kept is an older view.
 */
export function isEarlierStatus(status: OrderStatus, than: OrderStatus): boolean {
  return ORDER_STATUSES.indexOf(status) < ORDER_STATUSES.indexOf(than);
}

export function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * The targets reachable by hand from `status` for an order of `type`, in the order a kitchen
 * screen shows them (the forward step first, cancel last).
 * Payment confirmation (`pendiente_pago` → `recibido`/`programado`) and the scheduled release
 * (`programado` → `recibido`) are automatic and therefore not listed.
 */
export function nextTransitions(status: OrderStatus, type: OrderType): PatchTarget[] {
  switch (status) {
    case 'pendiente_pago':
      return ['cancelado'];
    case 'programado':
      return ['en_preparacion', 'cancelado'];
    case 'recibido':
      return ['en_preparacion', 'cancelado'];
    case 'en_preparacion':
      return ['listo', 'cancelado'];
    case 'listo':
      return type === 'delivery' ? ['en_reparto', 'cancelado'] : ['entregado', 'cancelado'];
    case 'en_reparto':
      return ['entregado', 'cancelado'];
    case 'entregado':
    case 'cancelado':
      return [];
  }
}

export function canTransition(status: OrderStatus, type: OrderType, target: OrderStatus): boolean {
  return (nextTransitions(status, type) as OrderStatus[]).includes(target);
}

/** The forward step a one-click bump performs, or null when the ticket has nowhere to go. */
export function bumpTarget(status: OrderStatus, type: OrderType): PatchTarget | null {
  const forward = nextTransitions(status, type).filter((t) => t !== 'cancelado');
  return forward[0] ?? null;
}
