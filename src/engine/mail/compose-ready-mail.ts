import { formatClp } from '../domain/format-clp.ts';

/** What the "your order is ready" mail says; pure, so tests and previews can build it. */
export interface ReadyMailInput {
  restaurantName: string;
  orderNumber: string;
  customerName: string | null;
  type: 'delivery' | 'retiro';
  locationName: string | null;
  locationAddress: string | null;
  /** The customer's address, for delivery orders. */
  address: string | null;
  /** `propio`, a courier's name, or null. */
  deliveryProvider: string | null;
  /** The courier's tracking page, when the dispatch already gave one. */
  trackingUrl: string | null;
  items: { name: string; quantity: number }[];
  total: number;
  test: boolean;
}

export interface ComposedMail {
  subject: string;
  text: string;
}

/** The Spanish mail a customer gets when the kitchen marks the order `listo`. */
export function composeReadyMail(input: ReadyMailInput): ComposedMail {
  const subject = `${input.test ? '[PRUEBA] ' : ''}Tu pedido N° ${input.orderNumber} está listo`;
  const name = input.customerName?.trim();
  const lines: string[] = [];
  if (input.test) lines.push('PRUEBA: este correo corresponde a un pedido de prueba (sandbox).', '');
  lines.push(name ? `Hola, ${name}:` : 'Hola:', '');
  lines.push(`Tu pedido N° ${input.orderNumber} en ${input.restaurantName} está listo.`);
  if (input.type === 'retiro') {
    const where = [input.locationName, input.locationAddress].filter((part): part is string => Boolean(part)).join(', ');
    lines.push(where ? `Puedes retirarlo en ${where}.` : 'Puedes retirarlo en el local.');
  } else {
    const to = input.address ? ` a ${input.address}` : '';
    if (input.deliveryProvider !== null && input.deliveryProvider !== 'propio') {
      lines.push(`Pedimos un repartidor para llevarlo${to}.`);
      if (input.trackingUrl) lines.push(`Puedes seguir el despacho en ${input.trackingUrl}`);
    } else {
      lines.push(`Pronto saldrá a despacho${to}.`);
    }
  }
  lines.push('', 'Detalle del pedido:');
  for (const item of input.items) lines.push(`  ${item.quantity} × ${item.name}`);
  lines.push(`Total: ${formatClp(input.total)}`, '', '¡Gracias por tu compra!', input.restaurantName, '');
  return { subject, text: lines.join('\n') };
}
