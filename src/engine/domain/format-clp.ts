const CLP = new Intl.NumberFormat('es-CL', { style: 'currency', currency: 'CLP', maximumFractionDigits: 0 });

/** An amount as Chileans read it: 27960 → "$27.960". */
export function formatClp(amount: number): string {
  return CLP.format(amount);
}
