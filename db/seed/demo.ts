// Demo data written with the database's own inserts (no server code: the seed sits below the server, which only reads
// what it finds): the demo accounts with the free trial running, and loads and bids on real lanes.
import { count, sql } from "drizzle-orm";
import { TRIAL_MONTHS } from "../../src/shared/constants";
import { countryCodeOf } from "../../src/shared/countries";
import { haversineMiles } from "../../src/shared/geo";
import { toMinor } from "../../src/shared/money";
import type { TDb } from "../client";
import { bids, loads, type NewLoad, type User, users } from "../tables";
import { CARGO, ETHIOPIA_CORRIDOR, EUROPE_LANES, type TPlace, US_LANES } from "./places";

export const DEMO_PASSWORD = "mytess-demo";

export const DEMO_USERS = [
  {
    email: "abebe@demo.mytess.app",
    firstName: "Abebe",
    lastName: "Kebede",
    userType: "driver",
    at: [9.0108, 38.7613],
    region: "ethiopia",
  },
  {
    email: "chaltu@demo.mytess.app",
    firstName: "Chaltu",
    lastName: "Tadesse",
    userType: "driver",
    at: [8.541, 39.2689],
    region: "ethiopia",
  },
  {
    email: "mike@demo.mytess.app",
    firstName: "Mike",
    lastName: "Johnson",
    userType: "driver",
    at: [41.85, -87.65],
    region: "us",
  },
  {
    email: "anna@demo.mytess.app",
    firstName: "Anna",
    lastName: "Kowalski",
    userType: "driver",
    at: [51.92, 4.48],
    region: "europe",
  },
  {
    email: "selam@demo.mytess.app",
    firstName: "Selam",
    lastName: "Bekele",
    userType: "shipper",
    at: null,
    region: "ethiopia",
  },
  { email: "john@demo.mytess.app", firstName: "John", lastName: "Carter", userType: "shipper", at: null, region: "us" },
  {
    email: "lena@demo.mytess.app",
    firstName: "Lena",
    lastName: "Fischer",
    userType: "shipper",
    at: null,
    region: "europe",
  },
] as const;

/**
 * What each region's demo accounts read amounts and distances in, as a new account there would: Ethiopia in birr,
 * kilometres and kilograms; Europe in euros, kilometres and kilograms; the United States in dollars, miles and pounds.
 */
export const DEMO_REGION_SETTINGS = {
  ethiopia: { currency: "ETB", units: "metric" },
  europe: { currency: "EUR", units: "metric" },
  us: { currency: "USD", units: "imperial" },
} as const;

/** A small deterministic generator, so every demo database holds the same loads. */
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

export const isDatabaseEmpty = async (db: TDb) =>
  ((await db.select({ n: count() }).from(users))[0]?.n ?? 0) === 0 &&
  ((await db.select({ n: count() }).from(loads))[0]?.n ?? 0) === 0;

type TRegion = {
  places: TPlace[];
  cargo: readonly { title: string; equipment: string; lbs: readonly [number, number] }[];
  hubs: string[];
};

const REGIONS: Record<"ethiopia" | "us" | "europe", TRegion> = {
  ethiopia: { places: ETHIOPIA_CORRIDOR, cargo: CARGO.ethiopia, hubs: ["Djibouti", "Modjo", "Addis Ababa"] },
  us: { places: US_LANES, cargo: CARGO.international, hubs: ["Chicago", "Dallas", "Los Angeles"] },
  europe: { places: EUROPE_LANES, cargo: CARGO.international, hubs: ["Rotterdam", "Hamburg", "Duisburg"] },
};

const DAY = 24 * 60 * 60 * 1000;

/** Seeds demo accounts and realistic loads; returns counts. Call only on an empty database. */
export const seedDemo = async (db: TDb, now = Date.now()) => {
  const rand = mulberry32(20261121);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)];
  const between = (a: number, b: number) => a + rand() * (b - a);

  // argon2id, as accounts hash passwords (Bun.password reads the algorithm back from the hash).
  const passwordHash = await Bun.password.hash(DEMO_PASSWORD, { algorithm: "argon2id" });
  const created: (User & { region: string })[] = [];
  const joined = now - 40 * DAY;
  const trialEnds = new Date(joined);
  trialEnds.setUTCMonth(trialEnds.getUTCMonth() + TRIAL_MONTHS);
  for (const u of DEMO_USERS) {
    const [user] = await db
      .insert(users)
      .values({
        email: u.email,
        passwordHash,
        firstName: u.firstName,
        lastName: u.lastName,
        userType: u.userType,
        ...DEMO_REGION_SETTINGS[u.region],
        // Demo accounts post many loads and fund them: their addresses count as proven.
        emailVerifiedAt: joined,
        trialEndsAt: trialEnds.getTime(),
        createdAt: joined,
        updatedAt: joined,
      })
      .returning();
    if (u.at) {
      await db
        .update(users)
        .set({ latitude: u.at[0], longitude: u.at[1], locationUpdatedAt: now - 2 * 60 * 60 * 1000 })
        .where(sql`${users.id} = ${user!.id}`);
    }
    created.push({ ...user!, region: u.region });
  }
  const shipperOf = (region: string) => created.find((u) => u.userType === "shipper" && u.region === region)!;
  const driversOf = (region: string) => created.filter((u) => u.userType === "driver" && u.region === region);

  const makeLoad = (region: keyof typeof REGIONS, status: "posted" | "completed"): NewLoad => {
    const r = REGIONS[region];
    let from = pick(r.places);
    let to = pick(r.places);
    if (rand() < 0.45) {
      const hubName = pick(r.hubs);
      const hub = r.places.find((p) => p.city === hubName)!;
      if (rand() < 0.5) from = hub;
      else to = hub;
    }
    while (to.city === from.city) to = pick(r.places);
    const cargo = pick(r.cargo);
    const miles = haversineMiles(from.lat, from.lng, to.lat, to.lng);
    // Times are whole milliseconds (an integer column; SQLite would keep a fraction as a real).
    const pickupDate = Math.round(status === "posted" ? now + between(0.3, 14) * DAY : now - between(5, 35) * DAY);
    const deliveryDate = Math.round(pickupDate + (Math.ceil(miles / 350) + between(0.5, 1.5)) * DAY);
    const [currency, perMile] =
      region === "ethiopia"
        ? rand() < 0.75
          ? (["ETB", between(210, 320)] as const)
          : (["USD", between(3.8, 5.6)] as const)
        : region === "us"
          ? (["USD", between(2.1, 3.4)] as const)
          : (["EUR", between(2.2, 3.3)] as const);
    const budget = Math.max(currency === "ETB" ? 8000 : 250, Math.round((miles * perMile) / 10) * 10);
    const jitter = () => between(-0.01, 0.01);
    return {
      shipperId: shipperOf(region).id,
      title: cargo.title,
      description: `${cargo.title} from ${from.city} to ${to.city}. Loading by forklift; documents ready at pickup.`,
      pickupAddress: pick(from.sites),
      pickupCity: from.city,
      pickupState: from.state,
      pickupCountry: from.country,
      pickupCountryCode: countryCodeOf(from.country),
      pickupLatitude: from.lat + jitter(),
      pickupLongitude: from.lng + jitter(),
      deliveryAddress: pick(to.sites),
      deliveryCity: to.city,
      deliveryState: to.state,
      deliveryCountry: to.country,
      deliveryLatitude: to.lat + jitter(),
      deliveryLongitude: to.lng + jitter(),
      pickupDate: Math.round(pickupDate),
      deliveryDate: Math.round(deliveryDate),
      weightLbs: Math.round(between(cargo.lbs[0], cargo.lbs[1]) / 100) * 100,
      equipmentType: cargo.equipment,
      budgetMinor: toMinor(budget, currency),
      budgetCurrency: currency,
      tripMiles: miles,
      specialInstructions:
        rand() < 0.4
          ? pick([
              "Tarp required",
              "Call the consignee 2 hours before arrival",
              "Seal number on the bill of lading",
              "No stacking",
              "Weighbridge ticket required at the port",
            ])
          : null,
      status,
      createdAt: Math.round(status === "posted" ? now - between(0, 6) * DAY : pickupDate - 3 * DAY),
      updatedAt: now,
    };
  };

  const plan: [keyof typeof REGIONS, number, number][] = [
    ["ethiopia", 130, 10],
    ["us", 70, 5],
    ["europe", 50, 5],
  ];
  let posted = 0;
  let completed = 0;
  await db.transaction(async (tx) => {
    for (const [region, nPosted, nCompleted] of plan) {
      for (let i = 0; i < nPosted; i++) {
        const values = makeLoad(region, "posted");
        const [load] = await tx.insert(loads).values(values).returning();
        posted++;
        // A few open loads already have bids waiting, as a shipper would find them (and the landing page shows them).
        if (i < 3)
          for (const driver of driversOf(region))
            await tx.insert(bids).values({
              loadId: load.id,
              driverId: driver.id,
              amountMinor: Math.round(values.budgetMinor * between(0.88, 0.99)),
              currency: values.budgetCurrency!,
              status: "pending",
              createdAt: Math.round(Math.min(now, values.createdAt! + between(1, 20) * 60 * 60 * 1000)),
              updatedAt: now,
            });
      }
      for (let i = 0; i < nCompleted; i++) {
        const values = makeLoad(region, "completed");
        const driver = pick(driversOf(region));
        const [load] = await tx.insert(loads).values(values).returning();
        const [bid] = await tx
          .insert(bids)
          .values({
            loadId: load.id,
            driverId: driver.id,
            amountMinor: Math.round(values.budgetMinor * between(0.85, 0.98)),
            currency: values.budgetCurrency!,
            status: "accepted",
            createdAt: values.createdAt!,
            updatedAt: values.pickupDate,
          })
          .returning();
        await tx
          .update(loads)
          .set({
            assignedDriverId: driver.id,
            acceptedBidId: bid.id,
            agreedAmountMinor: bid.amountMinor,
            agreedCurrency: bid.currency,
            pickedUpAt: values.pickupDate,
            deliveredAt: values.deliveryDate,
            completedAt: values.deliveryDate + DAY,
          })
          .where(sql`${loads.id} = ${load.id}`);
        const score = 4 + Math.round(rand());
        await tx
          .update(users)
          .set({
            ratingSum: sql`${users.ratingSum} + ${score}`,
            totalRatings: sql`${users.totalRatings} + 1`,
            totalTrips: sql`${users.totalTrips} + 1`,
          })
          .where(sql`${users.id} = ${driver.id}`);
        await tx
          .update(users)
          .set({ ratingSum: sql`${users.ratingSum} + 5`, totalRatings: sql`${users.totalRatings} + 1` })
          .where(sql`${users.id} = ${load.shipperId}`);
        completed++;
      }
    }
  });
  return { users: created.length, postedLoads: posted, completedLoads: completed };
};
