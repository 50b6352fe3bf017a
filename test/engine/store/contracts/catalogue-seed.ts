// A small catalogue both databases take, for the bodies that need products (stock, catalogue, sold-out).
import { R1, R2 } from '../support/store-backends.ts';

export const CATALOGUE_SEED = `
  INSERT INTO categories (id, restaurant_id, name, active, position) VALUES
    ('c-main', '${R1}', 'Platos', 1, 0), ('c-off', '${R1}', 'Temporada', 0, 1), ('c-r2', '${R2}', 'Bebidas', 1, 0);
  INSERT INTO products (id, restaurant_id, category_id, slug, name, price, offer_price, active, track_stock, position) VALUES
    ('p-zap', '${R1}', 'c-main', 'zapallo', 'Zapallo', 3000, NULL, 1, 1, 2),
    ('p-agua', '${R1}', 'c-main', 'agua', 'agua', 1000, 900, 1, 1, 1),
    ('p-off', '${R1}', 'c-main', 'apagado', 'Apagado', 500, NULL, 0, 0, 3),
    ('p-season', '${R1}', 'c-off', 'temporada', 'Temporada', 4000, NULL, 1, 1, 0),
    ('p-r2', '${R2}', 'c-r2', 'jugo', 'Jugo', 1500, NULL, 1, 0, 0);
  INSERT INTO modifier_groups (id, product_id, name, required, min, max, position) VALUES
    ('g-b', 'p-zap', 'Salsas', 0, 0, 2, 1), ('g-a', 'p-zap', 'Tamaño', 1, 1, 1, 0);
  INSERT INTO modifier_options (id, group_id, name, price, position) VALUES
    ('o-grande', 'g-a', 'Grande', 500, 1), ('o-chico', 'g-a', 'Chico', 0, 0), ('o-pebre', 'g-b', 'Pebre', 0, 0);`;
