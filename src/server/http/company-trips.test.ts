// A carrier company at work, over REST: its dispatcher bids for it, the shipper's award goes to the company, the
// dispatcher assigns one of its drivers, the driver runs the trip as an independent driver does, and the dispatcher
// keeps seeing it. Everyone else is refused as for any load.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createClient, loadInput, type TTestApp } from "../testing";
import { companyFixture, type TClient } from "./testing-company";

setDefaultTimeout(60_000);

const { fx, newUser, join: joinAs } = companyFixture(2);
let t: TTestApp;
beforeEach(() => {
  t = fx.t;
});
const join = (owner: TClient, companyId: number, role: string) => joinAs(owner, companyId, role, "driver");
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

/** A carrier with an owner, a dispatcher and two drivers; a shipper's load; the dispatcher's bid on it, accepted. */
const awarded = async () => {
  const owner = await newUser("driver");
  const companyId = (await owner.c.post("/api/companies", { kind: "carrier", name: "Abay Freight", country: "ET" }))
    .json.company.id as number;
  const dispatcher = await join(owner.c, companyId, "dispatcher");
  const driver = await join(owner.c, companyId, "driver");
  const shipper = await newUser("shipper");
  const loadId = (await shipper.c.post("/api/loads", loadInput({ budgetAmount: 1000 }))).json.id as number;
  const bid = await dispatcher.c.post(`/api/loads/${loadId}/bids`, { amount: 900 });
  expect(bid.status).toBe(201);
  expect((await shipper.c.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  return { owner, companyId, dispatcher, driver, shipper, loadId, bidId: bid.json.bid.id as number };
};

describe("a carrier company's trip", () => {
  test("the dispatcher's bid is the company's; the award goes to it; the assigned driver runs the trip and the dispatcher follows it", async () => {
    const { companyId, dispatcher, driver, shipper, loadId, bidId } = await awarded();
    const [row] = await t.rows<{ company_id: number }>("SELECT company_id FROM bids WHERE id = ?", bidId);
    expect(row!.company_id).toBe(companyId);
    const [load] = await t.rows<{ carrier_company_id: number; assigned_driver_id: number }>(
      "SELECT carrier_company_id, assigned_driver_id FROM loads WHERE id = ?",
      loadId,
    );
    expect(load).toEqual({ carrier_company_id: companyId, assigned_driver_id: dispatcher.id });
    // Before the assignment the company's driver is no party.
    expect((await driver.c.get(`/api/loads/${loadId}`)).status).toBe(404);

    const assigned = await dispatcher.c.post(`/api/loads/${loadId}/assign-driver`, { driverId: driver.id });
    expect(assigned.status).toBe(200);
    expect(assigned.json).toMatchObject({ id: loadId, status: "assigned", assignedDriverId: driver.id });

    // The driver runs it as an independent driver does.
    const seen = await driver.c.get(`/api/loads/${loadId}`);
    expect(seen.status).toBe(200);
    expect(seen.json.isAssignedToMe).toBe(true);
    // The load page offers "Assign driver" to the company's dispatchers only.
    expect(seen.json.dispatchedByMe).toBe(false);
    expect((await shipper.c.get(`/api/loads/${loadId}`)).json.dispatchedByMe).toBe(false);
    expect((await driver.c.get("/api/drivers/trips")).json.map((l: { id: number }) => l.id)).toContain(loadId);
    expect((await driver.c.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    // The dispatcher is no longer the driver: the steps are not theirs.
    expect((await dispatcher.c.post(`/api/loads/${loadId}/deliver`)).status).not.toBe(200);
    expect((await driver.c.post(`/api/loads/${loadId}/deliver`)).json.status).toBe("delivered");

    // The dispatcher follows the trip: the load, its timeline, its track, their trips list.
    const followed = await dispatcher.c.get(`/api/loads/${loadId}`);
    expect(followed.status).toBe(200);
    expect(followed.json).toMatchObject({ status: "delivered", isAssignedToMe: false, dispatchedByMe: true });
    const kinds = (await dispatcher.c.get(`/api/loads/${loadId}/timeline`)).json.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(["awarded", "picked_up", "delivered"]);
    expect((await dispatcher.c.get(`/api/loads/${loadId}/track`)).status).toBe(200);
    expect((await dispatcher.c.get("/api/drivers/trips")).json.map((l: { id: number }) => l.id)).toContain(loadId);
    expect((await shipper.c.post(`/api/loads/${loadId}/pod/accept`)).json.status).toBe("completed");
  });

  test("only the company's owners and dispatchers assign, only its drivers, only before pickup; others get 404", async () => {
    const { owner, companyId, dispatcher, driver, loadId } = await awarded();
    // A driver of the company: known to them, not theirs to do.
    const asDriver = await driver.c.post(`/api/loads/${loadId}/assign-driver`, { driverId: driver.id });
    expect(asDriver.status).toBe(403);
    expect(asDriver.json.messageId).toBe("error.company.assignNeedsDispatcher");
    // Another carrier's owner, a driver of no company, the shipper of another load: as if the load did not exist.
    const other = await newUser("driver");
    await other.c.post("/api/companies", { kind: "carrier", name: "Other Fleet", country: "ET" });
    const loner = await newUser("driver");
    const otherShipper = await newUser("shipper");
    for (const who of [other, loner, otherShipper])
      expect((await who.c.post(`/api/loads/${loadId}/assign-driver`, { driverId: driver.id })).status).toBe(404);
    // A load that was not awarded to a company.
    const solo = await newUser("driver");
    const shipper = await newUser("shipper");
    const soloLoad = (await shipper.c.post("/api/loads", loadInput())).json.id;
    const soloBid = (await solo.c.post(`/api/loads/${soloLoad}/bids`, { amount: 500 })).json.bid.id;
    await shipper.c.post(`/api/bids/${soloBid}/accept`);
    expect((await dispatcher.c.post(`/api/loads/${soloLoad}/assign-driver`, { driverId: driver.id })).status).toBe(404);
    expect((await dispatcher.c.post("/api/loads/999999/assign-driver", { driverId: driver.id })).status).toBe(404);

    // Bad input names the field; a member who is not a driver, or someone outside the company, is not a driverId.
    for (const body of [{}, { driverId: "x" }, { driverId: -1 }, { driverId: dispatcher.id }, { driverId: loner.id }]) {
      const r = await dispatcher.c.post(`/api/loads/${loadId}/assign-driver`, body);
      expect(r.status).toBe(400);
      expect(paths(r)).toContain("driverId");
    }
    const badId = await dispatcher.c.post("/api/loads/abc/assign-driver", { driverId: driver.id });
    expect(badId.status).toBe(400);

    // Signed out: 401.
    expect((await createClient(t, "10.9.9.9").post(`/api/loads/${loadId}/assign-driver`, { driverId: 1 })).status).toBe(
      401,
    );

    // The owner assigns too; after pickup the trip stays with its driver.
    expect((await owner.c.post(`/api/loads/${loadId}/assign-driver`, { driverId: driver.id })).status).toBe(200);
    expect((await driver.c.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    const late = await owner.c.post(`/api/loads/${loadId}/assign-driver`, { driverId: driver.id });
    expect(late.status).toBe(409);
    // Nothing changed for the company's load under any refusal.
    const [load] = await t.rows<{ assigned_driver_id: number; carrier_company_id: number }>(
      "SELECT assigned_driver_id, carrier_company_id FROM loads WHERE id = ?",
      loadId,
    );
    expect(load).toEqual({ assigned_driver_id: driver.id, carrier_company_id: companyId });
  });

  test("a bid of a company's driver is their own; a bid of a driver in no company records none", async () => {
    const { driver } = await awarded();
    const shipper = await newUser("shipper");
    const loadId = (await shipper.c.post("/api/loads", loadInput())).json.id;
    const solo = await newUser("driver");
    for (const who of [driver, solo]) {
      const bidId = (await who.c.post(`/api/loads/${loadId}/bids`, { amount: 700 })).json.bid.id;
      const [row] = await t.rows<{ company_id: number | null }>("SELECT company_id FROM bids WHERE id = ?", bidId);
      expect(row!.company_id).toBeNull();
    }
  });
});
