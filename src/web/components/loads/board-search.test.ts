import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { EQUIPMENT_TYPES, LOAD_SORTS, RADIUS_OPTIONS } from "../../../shared/constants";
import { parseBoardSearch } from "./board-search";

// The zod schema the board's address was read with before the reader was written out by hand (zod is not part of the
// landing page's first load). The hand-written reader must give the same answer for every address.
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const num = z.coerce.number().finite().optional().catch(undefined);
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);
const radius = num
  .pipe(
    z
      .number()
      .refine((v) => (RADIUS_OPTIONS as readonly number[]).includes(v))
      .optional(),
  )
  .catch(undefined);
const ZReference = z.object({
  highlight: z.coerce.number().int().positive().optional().catch(undefined),
  location: z.string().max(100).optional().catch(undefined),
  origin: z.string().max(200).optional().catch(undefined),
  latitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  longitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  radius,
  destination: z.string().max(200).optional().catch(undefined),
  destinationLatitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  destinationLongitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  destinationRadius: radius,
  pickupFrom: z.string().regex(DAY_RE).optional().catch(undefined),
  pickupTo: z.string().regex(DAY_RE).optional().catch(undefined),
  equipmentType: z
    .string()
    .refine((v) => v.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e)))
    .optional()
    .catch(undefined),
  loadSize: oneOf(["full", "partial"] as const),
  sourceType: oneOf(["mytess", "external"] as const),
  maxWeight: num.pipe(z.number().gt(0).optional()).catch(undefined),
  minRate: num.pipe(z.number().min(0).optional()).catch(undefined),
  sort: oneOf(LOAD_SORTS),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});

const KEYS = Object.keys(ZReference.shape);

// Values an address (TanStack Router reads JSON where it can) or a hand-edited link may hold.
const VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  "",
  " ",
  "0",
  "1",
  "-1",
  "12",
  " 12 ",
  "1e3",
  "0x10",
  "abc",
  "NaN",
  "Infinity",
  "-Infinity",
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  25,
  50,
  100,
  "100",
  250,
  500,
  "500",
  501,
  90,
  90.0001,
  -90,
  -90.5,
  180,
  "-180",
  180.1,
  9007199254740991,
  9007199254740992,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  [],
  [5],
  [1, 2],
  {},
  { a: 1 },
  "2026-11-26",
  "2026-1-26",
  "2026-11-26T00:00",
  "full",
  "partial",
  "all",
  "mytess",
  "external",
  "distance",
  "rate",
  "date",
  "dry_van",
  "dry_van,flatbed",
  "dry_van,",
  "truck",
  "x".repeat(100),
  "x".repeat(101),
  "x".repeat(200),
  "x".repeat(201),
  "Addis Ababa, ET",
];

describe("the board's address reader", () => {
  test("gives what the zod schema gave for every value in every field", () => {
    let compared = 0;
    for (const key of KEYS)
      for (const value of VALUES) {
        const raw = { [key]: value };
        expect({ key, value, read: parseBoardSearch(raw) }).toStrictEqual({
          key,
          value,
          read: ZReference.parse(raw),
        });
        compared++;
      }
    expect(compared).toBe(KEYS.length * VALUES.length);
  });

  test("gives what the zod schema gave for mixed addresses, unknown keys and absent keys", () => {
    // A fixed seed: a failure names an address that fails again on the next run.
    let seed = 20261126;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 2000; i++) {
      const raw: Record<string, unknown> = {};
      for (const key of [...KEYS, "unknown", "filter"])
        if (next() < 0.4) raw[key] = VALUES[Math.floor(next() * VALUES.length)];
      expect(parseBoardSearch(raw)).toStrictEqual(ZReference.parse(raw) as never);
    }
  });

  test("keeps a full, valid address as it is and drops what it cannot hold", () => {
    const address = {
      origin: "Chicago, IL, US",
      latitude: 41.88,
      longitude: -87.63,
      radius: 100,
      destination: "Dallas, TX, US",
      destinationLatitude: 32.78,
      destinationLongitude: -96.8,
      destinationRadius: 250,
      pickupFrom: "2026-12-01",
      pickupTo: "2026-12-07",
      equipmentType: "dry_van,refrigerated",
      loadSize: "full",
      sourceType: "mytess",
      maxWeight: 40000,
      minRate: 2.5,
      sort: "rate",
      page: 3,
      highlight: 17,
    };
    expect(parseBoardSearch(address)).toStrictEqual(address as never);
    expect(parseBoardSearch({ radius: 30, page: "0", sort: "price", latitude: 91, evil: "<script>" })).toStrictEqual({
      radius: undefined,
      page: undefined,
      sort: undefined,
      latitude: undefined,
    });
  });
});
