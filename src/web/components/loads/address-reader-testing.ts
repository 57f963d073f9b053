import { expect } from "bun:test";
import { z } from "zod";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../../../shared/constants";

// For the tests that hold the hand-written address readers (the board's, the truck search's) to the zod schemas they
// replace: the schemas' shared pieces, the values an address may hold, and the comparison itself.

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const num = z.coerce.number().finite().optional().catch(undefined);
export const zRadius = num
  .pipe(
    z
      .number()
      .refine((v) => (RADIUS_OPTIONS as readonly number[]).includes(v))
      .optional(),
  )
  .catch(undefined);
export const zLatitude = num.pipe(z.number().min(-90).max(90).optional()).catch(undefined);
export const zLongitude = num.pipe(z.number().min(-180).max(180).optional()).catch(undefined);
export const zText = (max: number) => z.string().max(max).optional().catch(undefined);
export const zDay = z.string().regex(DAY_RE).optional().catch(undefined);
export const zEquipment = z
  .string()
  .refine((v) => v.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e)))
  .optional()
  .catch(undefined);
export const zWholeFrom = (min: number) => z.coerce.number().int().min(min).optional().catch(undefined);
export const zNumber = num;

export const ADDRESS_SAMPLES: unknown[] = [
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

/**
 * The reader gives what the schema gives: for every sample in every field alone, then for 2,000 mixed addresses with
 * keys it does not know (a fixed seed, so a failure names an address that fails again on the next run).
 */
export const expectSameAsReference = <T extends z.ZodObject>(
  read: (raw: Record<string, unknown>) => unknown,
  reference: T,
  unknownKeys: string[],
) => {
  const keys = Object.keys(reference.shape);
  let compared = 0;
  for (const key of keys)
    for (const value of ADDRESS_SAMPLES) {
      const raw = { [key]: value };
      expect({ key, value, read: read(raw) }).toStrictEqual({ key, value, read: reference.parse(raw) });
      compared++;
    }
  expect(compared).toBe(keys.length * ADDRESS_SAMPLES.length);
  let seed = 20261126;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 2000; i++) {
    const raw: Record<string, unknown> = {};
    for (const key of [...keys, ...unknownKeys])
      if (next() < 0.4) raw[key] = ADDRESS_SAMPLES[Math.floor(next() * ADDRESS_SAMPLES.length)];
    expect(read(raw)).toStrictEqual(reference.parse(raw) as never);
  }
};
