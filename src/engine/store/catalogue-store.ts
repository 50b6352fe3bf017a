import type { Database, Statement } from 'better-sqlite3';
import { bound } from './bound.ts';

export interface CategoryRow {
  id: string;
  name: string;
  description: string | null;
}

export interface ProductRow {
  id: string;
  restaurant_id: string;
  category_id: string;
  slug: string;
  name: string;
  description: string | null;
  price: number;
  offer_price: number | null;
  image_url: string | null;
  active: number;
  track_stock: number;
  /** 1 when the product is active and its category too: only then can it be ordered. */
  orderable: number;
}

export interface ModifierGroupRow {
  id: string;
  product_id: string;
  name: string;
  required: number;
  min: number;
  max: number;
}

export interface ModifierOptionRow {
  id: string;
  group_id: string;
  name: string;
  price: number;
}

const PRODUCT_COLUMNS = `p.id, p.restaurant_id, p.category_id, p.slug, p.name, p.description, p.price, p.offer_price,
  p.image_url, p.active, p.track_stock, (p.active AND c.active) AS orderable`;

export class CatalogueStore {
  private readonly productById: Statement<[string, string], ProductRow>;
  private readonly groupsOfProduct: Statement<[string], ModifierGroupRow>;
  private readonly optionsOfProduct: Statement<[string], ModifierOptionRow>;
  private readonly activeCategories: Statement<[string], CategoryRow>;
  private readonly menuProducts: Statement<[string], ProductRow>;
  private readonly menuGroups: Statement<[string], ModifierGroupRow>;
  private readonly menuOptions: Statement<[string], ModifierOptionRow>;
  private readonly trackedProducts: Statement<[string], ProductRow>;
  private readonly optionById: Statement<[string, string], ModifierOptionRow & { product_id: string }>;

  constructor(db: Database) {
    // These three run for every item of every order placed: see bound.ts.
    this.productById = db.prepare(
      `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
       WHERE p.id = ${bound()} AND p.restaurant_id = ${bound()}`,
    );
    this.groupsOfProduct = db.prepare(`SELECT * FROM modifier_groups WHERE product_id = ${bound()} ORDER BY position, id`);
    this.optionsOfProduct = db.prepare(
      `SELECT o.* FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id
       WHERE g.product_id = ${bound()} ORDER BY g.position, o.position, o.id`,
    );
    this.activeCategories = db.prepare(
      'SELECT id, name, description FROM categories WHERE restaurant_id = ? AND active = 1 ORDER BY position, id',
    );
    this.menuProducts = db.prepare(
      `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
       WHERE p.restaurant_id = ? AND p.active = 1 AND c.active = 1 ORDER BY p.position, p.id`,
    );
    this.menuGroups = db.prepare(
      `SELECT g.* FROM modifier_groups g JOIN products p ON p.id = g.product_id
       WHERE p.restaurant_id = ? ORDER BY g.position, g.id`,
    );
    this.menuOptions = db.prepare(
      `SELECT o.* FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id JOIN products p ON p.id = g.product_id
       WHERE p.restaurant_id = ? ORDER BY o.position, o.id`,
    );
    this.optionById = db.prepare(
      `SELECT o.*, g.product_id FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id JOIN products p ON p.id = g.product_id
       WHERE o.id = ? AND p.restaurant_id = ?`,
    );
    this.trackedProducts = db.prepare(
      `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
       WHERE p.restaurant_id = ? AND p.track_stock = 1 ORDER BY p.name, p.id`,
    );
  }

  /** A modifier option of one of the restaurant's products, with that product's id. */
  option(restaurantId: string, id: string): (ModifierOptionRow & { product_id: string }) | undefined {
    return this.optionById.get(id, restaurantId);
  }

  product(restaurantId: string, id: string): ProductRow | undefined {
    return this.productById.get(id, restaurantId);
  }

  modifierGroups(productId: string): ModifierGroupRow[] {
    return this.groupsOfProduct.all(productId);
  }

  modifierOptions(productId: string): ModifierOptionRow[] {
    return this.optionsOfProduct.all(productId);
  }

  /** Everything the menu shows, in four queries whatever the catalogue's size. */
  menu(restaurantId: string) {
    return {
      categories: this.activeCategories.all(restaurantId),
      products: this.menuProducts.all(restaurantId),
      groups: this.menuGroups.all(restaurantId),
      options: this.menuOptions.all(restaurantId),
    };
  }

  trackedProductsOf(restaurantId: string): ProductRow[] {
    return this.trackedProducts.all(restaurantId);
  }
}
