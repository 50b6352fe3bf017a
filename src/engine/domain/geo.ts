/** A point on Earth as [latitude, longitude] in degrees (latitude first, unlike GeoJSON). */
export type LatLng = readonly [latitude: number, longitude: number];

const EARTH_RADIUS_KM = 6371.0088;

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Straight-line (great-circle) distance in km, by the haversine formula. */
export function distanceKm(from: LatLng, to: LatLng): number {
  const [fromLat, fromLng] = from;
  const [toLat, toLng] = to;
  const dLat = toRadians(toLat - fromLat);
  const dLng = toRadians(toLng - fromLng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(fromLat)) * Math.cos(toRadians(toLat)) * Math.sin(dLng / 2) ** 2;
  // min() guards against a rounding error pushing `a` just above 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Whether `point` lies inside `polygon` (corners in order; it closes by itself), by ray casting.
 * Treating lat/lng as a flat plane is fine for city-sized polygons away from the antimeridian.
 * A point exactly on an edge may fall either side.
 */
export function isInsidePolygon(point: LatLng, polygon: readonly LatLng[]): boolean {
  const [lat, lng] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [latI, lngI] = polygon[i]!;
    const [latJ, lngJ] = polygon[j]!;
    // The edge straddles the point's longitude and crosses the ray going north from the point.
    const straddles = lngI > lng !== lngJ > lng;
    if (straddles && lat < ((latJ - latI) * (lng - lngI)) / (lngJ - lngI) + latI) inside = !inside;
  }
  return inside;
}
