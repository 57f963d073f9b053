// A shipper company at work, over REST: a load posted by one of its members is the company's, so its owners and
// staff manage it as the poster does (bids, counter-offers, award, cancel, messages, tracking link, proof of delivery,
// rating once for the side, the lists). Anyone else — another shipper, another company's member, a member who left —
// gets 404 as for any load that is not theirs.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadInput, type TTestApp } from "../testing";
import { companyFixture, type TClient } from "./testing-company";

setDefaultTimeout(60_000);

const { fx, newUser, join: joinAs } = companyFixture(3);
let t: TTestApp;
beforeEach(() => {
  t = fx.t;
});
const join = (owner: TClient, companyId: number, role: string) => joinAs(owner, companyId, role, "shipper");
const ids = (r: { json: { id: number }[] }) => r.json.map((l) => l.id);

/** A shipper company (owner, staff), the owner's load with two drivers' bids on it. */
const company = async () => {
  const owner = await newUser("shipper");
  const created = await owner.c.post("/api/companies", { kind: "shipper", name: "Awash Cement", country: "ET" });
  expect(created.status).toBe(201);
  const companyId = created.json.company.id as number;
  const staff = await join(owner.c, companyId, "staff");
  const loadId = (await owner.c.post("/api/loads", loadInput({ budgetAmount: 1000 }))).json.id as number;
  const [d1, d2] = [await newUser("driver"), await newUser("driver")];
  const b1 = (await d1.c.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid.id as number;
  const b2 = (await d2.c.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid.id as number;
  return { owner, staff, companyId, loadId, d1, d2, b1, b2 };
};

describe("a shipper company's loads", () => {
  test("a member's load is the company's; staff negotiate, award, message, link, accept the proof and rate it", async () => {
    const { owner, staff, companyId, loadId, d1, b1, b2 } = await company();
    const [row] = await t.rows<{ shipper_id: number; shipper_company_id: number }>(
      "SELECT shipper_id, shipper_company_id FROM loads WHERE id = ?",
      loadId,
    );
    expect(row).toEqual({ shipper_id: owner.id, shipper_company_id: companyId });
    // A load of a shipper in no company belongs to no company.
    const loner = await newUser("shipper");
    const lonerLoad = (await loner.c.post("/api/loads", loadInput())).json.id as number;
    const [solo] = await t.rows<{ shipper_company_id: number | null }>(
      "SELECT shipper_company_id FROM loads WHERE id = ?",
      lonerLoad,
    );
    expect(solo!.shipper_company_id).toBeNull();

    // The staff member sees it as its shipper, in their list with who posted it.
    const seen = await staff.c.get(`/api/loads/${loadId}`);
    expect(seen.status).toBe(200);
    expect(seen.json.isMine).toBe(true);
    const mine = await staff.c.get("/api/loads/shipper");
    expect(mine.status).toBe(200);
    const listed = mine.json.find((l: { id: number }) => l.id === loadId);
    expect(listed.postedBy).toEqual({ id: owner.id, name: "Hana Alemu", isMe: false });
    expect(listed.pendingBids).toBe(2);
    expect((await owner.c.get("/api/loads/shipper")).json[0].postedBy.isMe).toBe(true);
    // The staff's own load shows in the owner's list too.
    const staffLoad = (await staff.c.post("/api/loads", loadInput({ title: "Staff's load" }))).json.id as number;
    expect(ids(await owner.c.get("/api/loads/shipper"))).toEqual([staffLoad, loadId]);

    // Bids, a counter-offer, a rejection and the award, all by the staff member.
    const bids = await staff.c.get(`/api/loads/${loadId}/bids`);
    expect(bids.status).toBe(200);
    expect(bids.json.length).toBe(2);
    expect((await staff.c.post(`/api/bids/${b2}/counter`, { amount: 920, currency: "USD" })).status).toBe(201);
    expect((await staff.c.post(`/api/bids/${b2}/reject`)).status).toBe(200);
    const accepted = await staff.c.post(`/api/bids/${b1}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: "assigned", assignedDriverId: d1.id });

    // Messages with the driver: the owner's and the staff's lines are both the shipper's side.
    expect(
      (await owner.c.post(`/api/loads/${loadId}/messages`, { body: "From the owner", driverId: d1.id })).status,
    ).toBe(201);
    const said = await staff.c.post(`/api/loads/${loadId}/messages`, { body: "From the staff", driverId: d1.id });
    expect(said.status).toBe(201);
    expect((await d1.c.post(`/api/loads/${loadId}/messages`, { body: "On my way" })).status).toBe(201);
    const thread = await staff.c.get(`/api/loads/${loadId}/messages?driverId=${d1.id}`);
    expect(thread.status).toBe(200);
    expect(thread.json.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).toEqual([
      ["From the owner", true],
      ["From the staff", true],
      ["On my way", false],
    ]);
    // The staff reading it does not mark the owner's lines read for the driver.
    const driverSide = await d1.c.get(`/api/loads/${loadId}/messages`);
    expect(driverSide.json.messages.map((m: { fromMe: boolean }) => m.fromMe)).toEqual([false, false, true]);
    expect((await staff.c.get(`/api/loads/${loadId}/conversations`)).status).toBe(200);

    // The trip: a tracking link, then the proof of delivery accepted by the staff member.
    expect((await d1.c.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    const link = await staff.c.post(`/api/loads/${loadId}/tracking-link`);
    expect(link.status).toBe(201);
    expect((await d1.c.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
    const done = await staff.c.post(`/api/loads/${loadId}/pod/accept`);
    expect(done.status).toBe(200);
    expect(done.json.status).toBe("completed");

    // The shipper's side rates once: the staff's rating closes it for the owner too.
    expect((await staff.c.post(`/api/loads/${loadId}/rating`, { score: 5 })).status).toBe(200);
    const again = await owner.c.post(`/api/loads/${loadId}/rating`, { score: 1 });
    expect(again.status).toBe(409);
    expect(again.json.messageId).toBe("error.rating.already");
    expect((await owner.c.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId).hasRated).toBe(
      true,
    );
    expect((await d1.c.post(`/api/loads/${loadId}/rating`, { score: 4 })).status).toBe(200);
  });

  test("staff cancel the company's load; the owner cancels the staff's", async () => {
    const { owner, staff, loadId, d2 } = await company();
    const cancelled = await staff.c.post(`/api/loads/${loadId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe("cancelled");
    const staffLoad = (await staff.c.post("/api/loads", loadInput())).json.id as number;
    expect((await owner.c.post(`/api/loads/${staffLoad}/cancel`, {})).json.status).toBe("cancelled");
    // A driver who bid still cannot cancel (a shipper's door).
    const third = (await owner.c.post("/api/loads", loadInput())).json.id as number;
    expect((await d2.c.post(`/api/loads/${third}/cancel`, {})).status).toBe(403);
  });

  test("another shipper, another company's member and a member who left get 404 on every shipper door", async () => {
    const { owner, staff, companyId, loadId, b1, b2 } = await company();
    const outsider = await newUser("shipper");
    const otherOwner = await newUser("shipper");
    const other = await otherOwner.c.post("/api/companies", { kind: "shipper", name: "Other Co", country: "ET" });
    const otherStaff = await join(otherOwner.c, other.json.company.id, "staff");
    const doors = (c: TClient) => [
      c.get(`/api/loads/${loadId}/bids`),
      c.post(`/api/bids/${b1}/accept`),
      c.post(`/api/bids/${b2}/reject`),
      c.post(`/api/bids/${b2}/counter`, { amount: 920, currency: "USD" }),
      c.post(`/api/loads/${loadId}/cancel`, {}),
      c.get(`/api/loads/${loadId}/conversations`),
      c.post(`/api/loads/${loadId}/tracking-link`),
      c.get(`/api/loads/${loadId}/payment`),
    ];
    for (const who of [outsider, otherOwner, otherStaff]) {
      for (const r of await Promise.all(doors(who.c))) expect(r.status).toBe(404);
      expect(ids(await who.c.get("/api/loads/shipper"))).not.toContain(loadId);
      expect((await who.c.get(`/api/loads/${loadId}`)).json.isMine).toBe(false);
    }

    // The staff member leaves: the company's loads are no longer theirs, at once.
    expect((await staff.c.get(`/api/loads/${loadId}/bids`)).status).toBe(200);
    expect((await owner.c.del(`/api/companies/${companyId}/members/${staff.id}`)).status).toBe(200);
    for (const r of await Promise.all(doors(staff.c))) expect(r.status).toBe(404);
    expect(ids(await staff.c.get("/api/loads/shipper"))).not.toContain(loadId);
    // The load stays the company's: the owner still awards it.
    expect((await owner.c.post(`/api/bids/${b1}/accept`)).status).toBe(200);
  });

  test("a poster who leaves keeps their own loads; the company keeps them too", async () => {
    const { owner, staff, companyId } = await company();
    const staffLoad = (await staff.c.post("/api/loads", loadInput())).json.id as number;
    expect((await staff.c.del(`/api/companies/${companyId}/members/${staff.id}`)).status).toBe(200);
    expect(ids(await staff.c.get("/api/loads/shipper"))).toEqual([staffLoad]);
    expect(ids(await owner.c.get("/api/loads/shipper"))).toContain(staffLoad);
    // A load they post after leaving is theirs alone.
    const later = (await staff.c.post("/api/loads", loadInput())).json.id as number;
    expect(ids(await owner.c.get("/api/loads/shipper"))).not.toContain(later);
  });

  test("My loads filters mine / the company's; a bad scope names the field", async () => {
    const { owner, staff, loadId } = await company();
    const staffLoad = (await staff.c.post("/api/loads", loadInput())).json.id as number;
    const page = async (c: TClient, input: Record<string, unknown>) =>
      c.get(`/trpc/loads.minePage?input=${encodeURIComponent(JSON.stringify(input))}`);
    const itemsOf = async (c: TClient, scope?: string) =>
      ((await page(c, scope ? { scope } : {})).json.result.data.items as { id: number }[]).map((l) => l.id);
    expect(await itemsOf(staff.c)).toEqual([staffLoad, loadId]);
    expect(await itemsOf(staff.c, "mine")).toEqual([staffLoad]);
    expect(await itemsOf(staff.c, "company")).toEqual([staffLoad, loadId]);
    expect(await itemsOf(owner.c, "mine")).toEqual([loadId]);
    const loner = await newUser("shipper");
    const own = (await loner.c.post("/api/loads", loadInput())).json.id as number;
    expect(await itemsOf(loner.c)).toEqual([own]);
    expect(await itemsOf(loner.c, "company")).toEqual([]);
    const bad = await page(staff.c, { scope: "everyone" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("scope");
    // The dashboard's figures count the company's loads.
    const stats = await staff.c.get("/trpc/dashboard.shipperStats");
    expect(stats.json.result.data).toMatchObject({ active: 2, totalBids: 2 });
  });
});
