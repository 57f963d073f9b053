import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { embeddedFonts, pdfText } from "../pdf/testing";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

let t: TTestApp;
// Chapa's webhook and callback go from the emulator into the test app, in process.
const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => t.app.handle(req) });
afterAll(() => emu.stop());
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let otherDriver: TClient;
let anon: TClient;
let loadId: number;

beforeEach(async () => {
  emu.controls.stripe.reset();
  emu.controls.chapa.reset();
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
  emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  otherDriver = createClient(t);
  anon = createClient(t);
  await registerUser(shipper, "shipper", { firstName: "Hana", lastName: "Tesfaye" });
  await registerUser(otherShipper, "shipper");
  await registerUser(driver, "driver", { firstName: "Dawit", lastName: "Bekele" });
  await registerUser(otherDriver, "driver");
  loadId = (
    await shipper.post(
      "/api/loads",
      loadInput({
        title: "Cement for Adama",
        budgetAmount: 60000,
        budgetCurrency: "ETB",
        pickupDate: "2026-12-01T09:00:00.000Z",
        deliveryDate: "2026-12-02T15:00:00.000Z",
      }),
    )
  ).json.id;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount: 55000, currency: "ETB" });
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
});

/** The shipper starts paying with Chapa; `pay` completes it on Chapa's page. Returns the payment's id and tx_ref. */
const startChapa = async (pay: boolean) => {
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
  expect(res.status).toBe(200);
  const txRef = decodeURIComponent(res.json.url.split("/").pop()!);
  if (pay) {
    await emu.controls.chapa.pay(txRef);
    await emu.controls.chapa.settled();
    expect((await shipper.get("/api/payments")).json[0].state).toBe("funded");
  }
  return { paymentId: res.json.paymentId as number, txRef };
};

/** The PDF as bytes (the test client reads answers as text). */
const receipt = async (who: TClient, id: number | string, headers: Record<string, string> = {}) => {
  const res = await t.app.handle(
    new Request(`http://localhost/api/payments/${id}/receipt.pdf`, {
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1", ...headers },
    }),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  return { status: res.status, headers: res.headers, bytes, json };
};

describe("a freight payment's receipt", () => {
  test("the shipper's: payer, payee, route, dates, agreed price, fee, total, state, history and Chapa's reference", async () => {
    const { paymentId, txRef } = await startChapa(true);
    const res = await receipt(shipper, paymentId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain(`receipt-${paymentId}.pdf`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await pdfText(res.bytes);
    for (const piece of [
      "Payment receipt",
      `Payment #${paymentId} · Load #${loadId} · Cement for Adama`,
      "Payer (shipper)",
      "Hana Tesfaye",
      "Payee (driver)",
      "Dawit Bekele",
      "Kality Customs Terminal, Addis Ababa, Ethiopia – Adama Industrial Park, Adama, Ethiopia",
      "December 1, 2026",
      "December 2, 2026",
      "Agreed price Br 55,000.00",
      "Platform fee (3%) Br 1,650.00",
      "Total paid by the shipper Br 56,650.00",
      "Currency ETB",
      "State Payment secured",
      "Provider Chapa",
      txRef,
      "History",
      "Awaiting payment",
    ])
      expect(text).toContain(piece);
    // The history lists both states, oldest first.
    expect(text.indexOf("Awaiting payment")).toBeLessThan(text.lastIndexOf("Payment secured"));
    expect(text).not.toContain("Total for the driver");
  });

  test("the driver's: their total is the agreed price; the shipper's fee is not on it", async () => {
    const { paymentId } = await startChapa(true);
    const res = await receipt(driver, paymentId);
    expect(res.status).toBe(200);
    const text = await pdfText(res.bytes);
    expect(text).toContain("Total for the driver Br 55,000.00");
    expect(text).toContain("Hana Tesfaye");
    expect(text).not.toContain("Platform fee");
    expect(text).not.toContain("56,650.00");
  });

  test("in Amharic with the Ethiopian calendar and the reader's time zone, drawn with the Ethiopic font", async () => {
    const { paymentId } = await startChapa(true);
    expect((await driver.put("/api/user/language", { language: "am" })).status).toBe(200);
    expect((await driver.put("/api/user/calendar", { calendar: "ethiopic", ethiopianTime: false })).status).toBe(200);
    const res = await receipt(driver, paymentId, { Cookie: `${driver.cookie}; mytess_tz=Africa%2FAddis_Ababa` });
    expect(res.status).toBe(200);
    expect(embeddedFonts(res.bytes)).toContain("NotoSansEthiopic-Regular");
    const text = await pdfText(res.bytes);
    // 1 December 2026 is 22 Hidar 2019 in the Ethiopian calendar; birr is written ብር in Amharic.
    for (const piece of [
      "የክፍያ ደረሰኝ",
      "22 ኅዳር 2019 ዓ.ም.",
      "23 ኅዳር 2019 ዓ.ም.",
      "ብር 55,000.00",
      "ክፍያው ተረጋግጧል",
      "Dawit Bekele",
    ])
      expect(text).toContain(piece);
    expect(text).not.toContain("Payment receipt");
  });

  test("in Afaan Oromo for a reader who uses it", async () => {
    const { paymentId } = await startChapa(false);
    expect((await shipper.put("/api/user/language", { language: "om" })).status).toBe(200);
    const text = await pdfText((await receipt(shipper, paymentId)).bytes);
    expect(text).toContain("Nagahee kaffaltii");
    expect(text).toContain("Kaffaltii eeggachaa jira");
    expect(text).not.toContain("Payment receipt");
  });

  test("another account gets 404, a signed-out caller 401, a bad id 400 naming it, a missing payment 404", async () => {
    const { paymentId } = await startChapa(false);
    for (const who of [otherShipper, otherDriver]) {
      const res = await receipt(who, paymentId);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe("Payment not found");
    }
    expect((await receipt(anon, paymentId)).status).toBe(401);
    for (const bad of ["abc", "0", "-3", "1.5"]) {
      const res = await receipt(shipper, bad);
      expect(res.status).toBe(400);
      expect(res.json.message).toContain("id");
    }
    expect((await receipt(shipper, paymentId + 1000)).status).toBe(404);
    // Over tRPC's JSON the receipt is not served (it is a file).
    const trpc = await shipper.get(`/trpc/payments.receipt?input=${encodeURIComponent(JSON.stringify({ paymentId }))}`);
    expect(trpc.status).toBe(404);
  });
});
