import { invalidRequest } from './errors.ts';

export interface PricedProduct {
  id: string;
  name: string;
  price: number;
  offer_price: number | null;
}

export interface ModifierGroupRule {
  id: string;
  name: string;
  required: boolean;
  min: number;
  max: number;
}

export interface ModifierOptionPrice {
  id: string;
  group_id: string;
  name: string;
  price: number;
}

export interface ChosenModifier {
  group: string | null;
  name: string | null;
  price: number;
}

/** The product's own price: the offer when there is one and it is lower. */
export function productBasePrice(product: PricedProduct): number {
  return product.offer_price !== null && product.offer_price < product.price ? product.offer_price : product.price;
}

/** Fewest options a group accepts: a required group needs at least one even when its `min` is 0. */
function minimumChoices(group: ModifierGroupRule): number {
  return group.required ? Math.max(group.min, 1) : group.min;
}

/**
 * Checks the options chosen for one item against every modifier group of its product and returns
 * them priced, in the menu's order. `path` names the item in error messages (`items[2]`).
 */
export function chooseModifiers(
  product: PricedProduct,
  groups: ModifierGroupRule[],
  options: ModifierOptionPrice[],
  chosenIds: string[],
  path: string,
): ChosenModifier[] {
  const optionsById = new Map(options.map((o) => [o.id, o]));
  const seen = new Set<string>();
  chosenIds.forEach((id, index) => {
    if (!optionsById.has(id)) {
      throw invalidRequest(`${path}.modifier_option_ids[${index}] is not an option of product ${product.id} (${product.name})`);
    }
    if (seen.has(id)) throw invalidRequest(`${path}.modifier_option_ids[${index}] repeats option ${id}`);
    seen.add(id);
  });
  for (const group of groups) {
    const count = chosenIds.filter((id) => optionsById.get(id)!.group_id === group.id).length;
    const least = minimumChoices(group);
    if (count < least) {
      throw invalidRequest(
        `${path}.modifier_option_ids: group "${group.name}" needs at least ${least} option${least === 1 ? '' : 's'}, got ${count}`,
      );
    }
    if (count > group.max) {
      throw invalidRequest(
        `${path}.modifier_option_ids: group "${group.name}" accepts at most ${group.max} option${group.max === 1 ? '' : 's'}, got ${count}`,
      );
    }
  }
  const groupNames = new Map(groups.map((g) => [g.id, g.name]));
  return options
    .filter((o) => seen.has(o.id))
    .map((o) => ({ group: groupNames.get(o.group_id) ?? null, name: o.name, price: o.price }));
}

export interface OrderTotals {
  subtotal: number;
  shipping_fee: number;
  discount: number;
  total: number;
}

export function orderTotals(lines: { unit_price: number; quantity: number }[], shippingFee: number, discount = 0): OrderTotals {
  const subtotal = lines.reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
  return { subtotal, shipping_fee: shippingFee, discount, total: subtotal + shippingFee - discount };
}
