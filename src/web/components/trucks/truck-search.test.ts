import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../../../shared/constants";
import { ADDRESS_SAMPLES } from "../loads/address-samples";
import { parseFindTrucksSearch } from "./truck-search";

// The zod schema the truck search's address was read with before the reader was written out by hand (zod is not part
// of the first load). The hand-written reader must give the same answer for every address.
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const num = z.coerce.number().finite().optional().catch(undefined);
const radius = num
  .pipe(
    z
      .number()
      .refine((v) => (RADIUS_OPTIONS as readonly number[]).includes(v))
      .optional(),
  )
  .catch(undefined);
const ZReference = z.object({
  load: z.coerce.number().int().positive().optional().catch(undefined),
  origin: z.string().max(200).optional().catch(undefined),
  latitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  longitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  radius,
  destination: z.string().max(200).optional().catch(undefined),
  destinationLatitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  destinationLongitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  destinationRadius: radius,
  from: z.string().regex(DAY_RE).optional().catch(undefined),
  to: z.string().regex(DAY_RE).optional().catch(undefined),
  equipmentType: z
    .string()
    .refine((v) => v.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e)))
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
const KEYS = Object.keys(ZReference.shape);

describe("the truck search's address reader", () => {
  test("gives what the zod schema gave for every value in every field", () => {
    let compared = 0;
    for (const key of KEYS)
      for (const value of ADDRESS_SAMPLES) {
        const raw = { [key]: value };
        expect({ key, value, read: parseFindTrucksSearch(raw) }).toStrictEqual({
          key,
          value,
          read: ZReference.parse(raw),
        });
        compared++;
      }
    expect(compared).toBe(KEYS.length * ADDRESS_SAMPLES.length);
  });

  test("gives what the zod schema gave for mixed addresses and unknown keys; keeps a valid address as it is", () => {
    let seed = 20261126;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 2000; i++) {
      const raw: Record<string, unknown> = {};
      for (const key of [...KEYS, "unknown", "sort"])
        if (next() < 0.4) raw[key] = ADDRESS_SAMPLES[Math.floor(next() * ADDRESS_SAMPLES.length)];
      expect(parseFindTrucksSearch(raw)).toStrictEqual(ZReference.parse(raw) as never);
    }
    const address = {
      load: 12,
      origin: "Addis Ababa, ET",
      latitude: 9.03,
      longitude: 38.74,
      radius: 100,
      destination: "Adama, ET",
      destinationLatitude: 8.54,
      destinationLongitude: 39.27,
      destinationRadius: 50,
      from: "2026-12-01",
      to: "2026-12-07",
      equipmentType: "dry_van,flatbed",
      page: 2,
    };
    expect(parseFindTrucksSearch(address)).toStrictEqual(address);
  });
});
