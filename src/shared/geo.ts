import { EARTH_RADIUS_MILES } from "./constants";

const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in miles (haversine, Earth radius 3959 mi). */
export const haversineMiles = (lat1: number, lng1: number, lat2: number, lng2: number) => {
  const dLat = toRad(lat2 - lat1);
  const dLng = toRad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
};

/** A latitude/longitude box that contains every point within `miles` of the centre (the R*Tree's first cut). */
export const boundingBox = (lat: number, lng: number, miles: number) => {
  const dLat = (miles / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const cosLat = Math.cos(toRad(lat));
  const dLng = cosLat < 1e-6 ? 180 : Math.min(180, dLat / cosLat);
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
};
