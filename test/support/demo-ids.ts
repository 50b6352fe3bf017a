// Ids fixed in resources/demo/*.json, named by the role they play in tests.

/** "La Picada de Ñuñoa", register_mode manual. */
export const R1 = {
  id: '10000000-0000-4000-8000-000000000001',
  /** Register open; own delivery (4 km radius, bands 2 km 1990, 4 km 2990); pino stock 0. */
  openLocation: '11000000-0000-4000-8000-000000000001',
  /** Active, register closed; courier "simulado". */
  closedLocation: '11000000-0000-4000-8000-000000000002',
  /** Deactivated. */
  inactiveLocation: '11000000-0000-4000-8000-000000000003',
  products: {
    /** Tracked: 0 at the open location, 24 at the closed one, 40 at the inactive one. 2990. */
    empanadaPino: '13000000-0000-4000-8000-000000000001',
    /** Tracked: 30 at the open location, 12 at the closed one. 2490. */
    empanadaQueso: '13000000-0000-4000-8000-000000000002',
    /** Untracked, 3490. */
    empanadaCamaronQueso: '13000000-0000-4000-8000-000000000003',
    /** 8990, required group "Pan" (min 1 max 1). */
    churrasco: '13000000-0000-4000-8000-000000000004',
    /** price 8490, offer_price 7490. */
    barrosLuco: '13000000-0000-4000-8000-000000000005',
    /** 3490, optional group "Agregados" (min 0 max 3). */
    completo: '13000000-0000-4000-8000-000000000006',
    /** Tracked: 8 at the open location, 5 at the closed one. 9990. */
    pastelDeChoclo: '13000000-0000-4000-8000-000000000007',
    /** Untracked, 8490. */
    cazuela: '13000000-0000-4000-8000-000000000008',
    /** Tracked: only at the inactive location (15). */
    humitas: '13000000-0000-4000-8000-000000000009',
    /** Inactive product. */
    porotosGranados: '13000000-0000-4000-8000-000000000010',
    /** Untracked, 1790. */
    bebidaLata: '13000000-0000-4000-8000-000000000011',
    /** In the inactive category "Invierno". */
    sopaipillas: '13000000-0000-4000-8000-000000000013',
  },
  groups: { pan: '14000000-0000-4000-8000-000000000001', agregados: '14000000-0000-4000-8000-000000000002' },
  options: {
    marraqueta: '15000000-0000-4000-8000-000000000001',
    frica: '15000000-0000-4000-8000-000000000002',
    /** +500 */
    panAmasado: '15000000-0000-4000-8000-000000000003',
    /** +800 */
    paltaExtra: '15000000-0000-4000-8000-000000000004',
    /** +500 */
    tomateExtra: '15000000-0000-4000-8000-000000000005',
    /** +400 */
    chucrut: '15000000-0000-4000-8000-000000000006',
    /** +0 */
    ajiVerde: '15000000-0000-4000-8000-000000000007',
  },
} as const;

/** "Sushi Providencia", register_mode schedule. */
export const R2 = {
  id: '20000000-0000-4000-8000-000000000001',
} as const;

export const UNKNOWN_UUID = '99999999-9999-4999-8999-999999999999';
