import { haversineMiles } from "../../../shared/geo";

type TPoint = { latitude: number; longitude: number };
type TTimedPoint = TPoint & { recordedAt: number };

/**
 * Roads are longer than the great circle. The factor multiplies the straight-line distance left to the delivery
 * point, by the region the delivery point lies in (the first box that holds it); product-rules.md names the values.
 */
export const ROAD_FACTORS: {
  region: string;
  south: number;
  north: number;
  west: number;
  east: number;
  factor: number;
}[] = [
  // Ethiopia and its neighbours: highland roads wind around escarpments and gorges, and few roads run straight.
  { region: "horn_of_africa", south: -5, north: 18, west: 32, east: 52, factor: 1.4 },
  // A dense grid of straight highways.
  { region: "north_america", south: 14, north: 72, west: -170, east: -50, factor: 1.2 },
  { region: "europe", south: 34, north: 72, west: -25, east: 45, factor: 1.3 },
];
export const DEFAULT_ROAD_FACTOR = 1.3;

export const roadFactorAt = (p: TPoint) =>
  ROAD_FACTORS.find(
    (r) => p.latitude >= r.south && p.latitude <= r.north && p.longitude >= r.west && p.longitude <= r.east,
  )?.factor ?? DEFAULT_ROAD_FACTOR;

/** The window of recent points the speed is read from. */
export const RECENT_SPEED_WINDOW_MS = 60 * 60_000;
/** Below this the truck is taken to be stopped (a meal, a border, a queue): the speed of the whole trip is used. */
export const MIN_MOVING_MPH = 5;
/** Before the track says anything (one point, or a truck that has not moved yet): a loaded truck's usual pace. */
export const DEFAULT_SPEED_MPH = 40;

const pathMiles = (points: TPoint[]) => {
  let miles = 0;
  for (let i = 1; i < points.length; i++)
    miles += haversineMiles(points[i - 1].latitude, points[i - 1].longitude, points[i].latitude, points[i].longitude);
  return miles;
};

const mph = (points: TTimedPoint[]) => {
  if (points.length < 2) return null;
  const hours = (points.at(-1)!.recordedAt - points[0].recordedAt) / 3_600_000;
  if (hours <= 0) return null;
  const speed = pathMiles(points) / hours;
  return speed >= MIN_MOVING_MPH ? speed : null;
};

/**
 * The speed to reckon the rest of the trip at: the last hour's, or when the truck stands still or the hour holds too
 * little, the whole trip's (from its first and last points and the path between the thinned points), else the default.
 */
export const tripSpeedMph = (recent: TTimedPoint[], whole: TTimedPoint[]) =>
  mph(recent) ?? mph(whole) ?? DEFAULT_SPEED_MPH;

/** Road miles left: to the delivery point, or through the pickup first while the load is not picked up yet. */
export const remainingRoadMiles = (from: TPoint, pickup: TPoint, delivery: TPoint, pickedUp: boolean) => {
  const straight = pickedUp
    ? haversineMiles(from.latitude, from.longitude, delivery.latitude, delivery.longitude)
    : haversineMiles(from.latitude, from.longitude, pickup.latitude, pickup.longitude) +
      haversineMiles(pickup.latitude, pickup.longitude, delivery.latitude, delivery.longitude);
  return straight * roadFactorAt(delivery);
};

/**
 * Evenly spaced points of a long track, the first and the last always among them: the i-th is the point at
 * ceil(i × (n − 1) / (max − 1)). In whole numbers, index r is picked when (r × (max − 1)) mod (n − 1) < max − 1, the
 * rule the database applies in `thinnedPoints`, so both pick the same points.
 */
export const thin = <T>(points: T[], max: number): T[] => {
  if (points.length <= max) return points;
  const out: T[] = [];
  const m = points.length - 1;
  const k = max - 1;
  for (let i = 0; i < max; i++) out.push(points[Math.ceil((i * m) / k)]);
  return out;
};
