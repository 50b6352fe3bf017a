// Issue 34: CatalogueStore (store/catalogue-store.ts) on PostgreSQL. `orderable` is 0 or 1 as on
// SQLite (there `p.active AND c.active`; PostgreSQL has no AND of integers, so a CASE says it).
import type { AsyncStore } from '../../store/async-store.ts';
import type { CatalogueStore, CategoryRow, ModifierGroupRow, ModifierOptionRow, ProductRow } from '../../store/catalogue-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const PRODUCT_COLUMNS = `p.id, p.restaurant_id, p.category_id, p.slug, p.name, p.description, p.price, p.offer_price,
  p.image_url, p.active, p.track_stock, CASE WHEN p.active <> 0 AND c.active <> 0 THEN 1 ELSE 0 END AS orderable`;

// Every ORDER BY on text is COLLATE "C": byte by byte, as SQLite's BINARY, whatever the database's
// collation (a product named "agua" after "Zapallo" on both).
const SQL = {
  productById: `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
    WHERE p.id = $1 AND p.restaurant_id = $2`,
  groupsOfProduct: 'SELECT * FROM modifier_groups WHERE product_id = $1 ORDER BY position, id COLLATE "C"',
  optionsOfProduct: `SELECT o.* FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id
    WHERE g.product_id = $1 ORDER BY g.position, o.position, o.id COLLATE "C"`,
  activeCategories: 'SELECT id, name, description FROM categories WHERE restaurant_id = $1 AND active = 1 ORDER BY position, id COLLATE "C"',
  menuProducts: `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
    WHERE p.restaurant_id = $1 AND p.active = 1 AND c.active = 1 ORDER BY p.position, p.id COLLATE "C"`,
  menuGroups: `SELECT g.* FROM modifier_groups g JOIN products p ON p.id = g.product_id
    WHERE p.restaurant_id = $1 ORDER BY g.position, g.id COLLATE "C"`,
  menuOptions: `SELECT o.* FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id JOIN products p ON p.id = g.product_id
    WHERE p.restaurant_id = $1 ORDER BY o.position, o.id COLLATE "C"`,
  optionById: `SELECT o.*, g.product_id FROM modifier_options o JOIN modifier_groups g ON g.id = o.group_id JOIN products p ON p.id = g.product_id
    WHERE o.id = $1 AND p.restaurant_id = $2`,
  trackedProducts: `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN categories c ON c.id = p.category_id
    WHERE p.restaurant_id = $1 AND p.track_stock = 1 ORDER BY p.name COLLATE "C", p.id COLLATE "C"`,
};

export class PostgresCatalogueStore implements AsyncStore<CatalogueStore> {
  constructor(private readonly db: PostgresQueryable) {}

  option(restaurantId: string, id: string): Promise<(ModifierOptionRow & { product_id: string }) | undefined> {
    return firstRow(this.db, SQL.optionById, [id, restaurantId]);
  }

  product(restaurantId: string, id: string): Promise<ProductRow | undefined> {
    return firstRow<ProductRow>(this.db, SQL.productById, [id, restaurantId]);
  }

  modifierGroups(productId: string): Promise<ModifierGroupRow[]> {
    return rowsOf<ModifierGroupRow>(this.db, SQL.groupsOfProduct, [productId]);
  }

  modifierOptions(productId: string): Promise<ModifierOptionRow[]> {
    return rowsOf<ModifierOptionRow>(this.db, SQL.optionsOfProduct, [productId]);
  }

  /** The menu's four queries, sent together (pipelined on the engine's pool). */
  async menu(restaurantId: string): Promise<{ categories: CategoryRow[]; products: ProductRow[]; groups: ModifierGroupRow[]; options: ModifierOptionRow[] }> {
    const [categories, products, groups, options] = await Promise.all([
      rowsOf<CategoryRow>(this.db, SQL.activeCategories, [restaurantId]),
      rowsOf<ProductRow>(this.db, SQL.menuProducts, [restaurantId]),
      rowsOf<ModifierGroupRow>(this.db, SQL.menuGroups, [restaurantId]),
      rowsOf<ModifierOptionRow>(this.db, SQL.menuOptions, [restaurantId]),
    ]);
    return { categories, products, groups, options };
  }

  trackedProductsOf(restaurantId: string): Promise<ProductRow[]> {
    return rowsOf<ProductRow>(this.db, SQL.trackedProducts, [restaurantId]);
  }
}
