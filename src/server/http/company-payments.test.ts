// A shipper company's payments: the owners and staff of a shipper company see the payments of the company's loads in
// GET /api/payments as their shipper (the fee and total included) and download their receipts; anyone else (another
// shipper, a member who left) sees none of them and gets 404 for the receipt.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { pdfText } from "../pdf/testing";
import { loadInput, type TTestApp } from "../testing";
import { companyFixture, type TClient } from "./testing-company";

setDefaultTimeout(60_000);

const { fx, newUser, join: joinAs } = companyFixture(4);
let t: TTestApp;
beforeEach(() => {
  t = fx.t;
});
const join = (owner: TClient, companyId: number, role: string) => joinAs(owner, companyId, role, "shipper");
const receipt = async (who: TClient, id: number) => {
  const res = await t.app.handle(
    new Request(`http://localhost/api/payments/${id}/receipt.pdf`, {
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1" },
    }),
  );
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
};
const listed = async (c: TClient) =>
  (await c.get("/api/payments")).json as { id: number; loadId: number; role: string; fee: number; total: number }[];

/** The owner's load, awarded to a driver, with its payment funded (as Chapa's funding leaves it). */
const companyPayment = async () => {
  const owner = await newUser("shipper");
  const created = await owner.c.post("/api/companies", { kind: "shipper", name: "Awash Cement", country: "ET" });
  expect(created.status).toBe(201);
  const companyId = created.json.company.id as number;
  const staff = await join(owner.c, companyId, "staff");
  const loadId = (await owner.c.post("/api/loads", loadInput({ budgetAmount: 1000, budgetCurrency: "ETB" }))).json
    .id as number;
  const driver = await newUser("driver");
  const bid = (await driver.c.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "ETB" })).json.bid.id;
  expect((await staff.c.post(`/api/bids/${bid}/accept`)).status).toBe(200);
  const now = Date.now();
  await t.rows(
    `INSERT INTO freight_payments (load_id, shipper_id, driver_id, provider, provider_ref, charge_ref, state, currency,
       agreed_minor, fee_minor, created_at, updated_at) VALUES (?, ?, ?, 'chapa', ?, ?, 'funded', 'ETB', 90000, 2700, ?, ?)`,
    loadId,
    owner.id,
    driver.id,
    `tx-${loadId}`,
    `tx-${loadId}`,
    now,
    now,
  );
  const [row] = await t.rows<{ id: number }>("SELECT id FROM freight_payments WHERE load_id = ?", loadId);
  return { owner, staff, companyId, loadId, driver, paymentId: Number(row!.id) };
};

describe("a shipper company's payments", () => {
  test("owner and staff list them as the shipper and download the receipt; others see nothing, 404", async () => {
    const { owner, staff, loadId, driver, paymentId, companyId } = await companyPayment();
    for (const who of [owner, staff]) {
      const mine = (await listed(who.c)).filter((p) => p.id === paymentId);
      expect(mine).toEqual([expect.objectContaining({ loadId, role: "shipper", fee: 27, total: 927 })]);
      const pdf = await receipt(who.c, paymentId);
      expect(pdf.status).toBe(200);
      expect(pdf.type).toBe("application/pdf");
      expect(await pdfText(pdf.bytes)).toContain("Platform fee");
    }
    // The driver still sees theirs as the driver, without the fee.
    expect((await listed(driver.c)).find((p) => p.id === paymentId)).toMatchObject({ role: "driver", fee: 0 });
    // Another shipper, and another shipper company's owner: nothing listed, the receipt 404.
    const stranger = await newUser("shipper");
    const other = await newUser("shipper");
    expect((await other.c.post("/api/companies", { kind: "shipper", name: "Other Co", country: "ET" })).status).toBe(
      201,
    );
    for (const who of [stranger, other]) {
      expect(await listed(who.c)).toEqual([]);
      expect((await receipt(who.c, paymentId)).status).toBe(404);
    }
    // A staff member removed from the company loses them at once.
    expect((await owner.c.del(`/api/companies/${companyId}/members/${staff.id}`)).status).toBe(200);
    expect(await listed(staff.c)).toEqual([]);
    expect((await receipt(staff.c, paymentId)).status).toBe(404);
  });
});
