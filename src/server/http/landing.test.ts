import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

test("the received-bids demo shows real pending bids on a posted load, drivers as initials only", async () => {
  const t = await createTestApp();
  const anon = createClient(t);
  const none = await anon.get(`/trpc/platform.bidsDemo?input=${encodeURIComponent("{}")}`);
  expect(none.json.result.data).toBeNull();

  const shipper = createClient(t);
  await registerUser(shipper, "shipper");
  const load = await shipper.post(
    "/api/loads",
    loadInput({
      title: "Coffee, 12 t",
      pickupCity: "Jimma",
      pickupState: undefined,
      pickupLatitude: 7.67,
      pickupLongitude: 36.83,
      budgetAmount: 90000,
      budgetCurrency: "ETB",
    }),
  );
  const drivers = [
    { firstName: "Dawit", lastName: "Alemu", at: { latitude: 7.7, longitude: 36.8 }, amount: 85000 },
    { firstName: "Hirut", lastName: "Tadesse", at: { latitude: 9.0, longitude: 38.7 }, amount: 80000 },
  ];
  const secrets: string[] = [];
  for (const d of drivers) {
    const c = createClient(t);
    const u = await registerUser(c, "driver", { firstName: d.firstName, lastName: d.lastName });
    secrets.push(u.email, d.firstName, d.lastName);
    expect((await c.post("/api/drivers/location", d.at)).status).toBe(200);
    expect((await c.post(`/api/loads/${load.json.id}/bids`, { amount: d.amount, currency: "ETB" })).status).toBe(201);
  }

  const res = await anon.get(`/trpc/platform.bidsDemo?input=${encodeURIComponent("{}")}`);
  const demo = res.json.result.data;
  expect(demo.load).toMatchObject({ title: "Coffee, 12 t", pickupLocation: "Jimma, Ethiopia" });
  expect(demo.bids).toEqual([
    {
      initials: "HT",
      rating: 0,
      trips: 0,
      distance: expect.any(Number),
      amount: 80000,
      currency: "ETB",
      isClosest: false,
    },
    {
      initials: "DA",
      rating: 0,
      trips: 0,
      distance: expect.any(Number),
      amount: 85000,
      currency: "ETB",
      isClosest: true,
    },
  ]);
  // Nothing that names or identifies a driver (the exact fields above carry no ids).
  for (const s of secrets) expect(JSON.stringify(demo)).not.toContain(s);

  // Once the load is awarded it is no one's demo any more.
  const bids = await shipper.get(`/api/loads/${load.json.id}/bids`);
  expect((await shipper.post(`/api/bids/${bids.json[0].id}/accept`)).status).toBe(200);
  const after = await anon.get(`/trpc/platform.bidsDemo?input=${encodeURIComponent("{}")}`);
  expect(after.json.result.data).toBeNull();
}, 30_000);
