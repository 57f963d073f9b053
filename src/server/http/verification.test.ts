import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import sharp from "sharp";
import { operators } from "../../../db/tables";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { remindExpiringInsurance } from "../modules/verification/insurance";
import { badgesFor } from "../modules/verification/verification";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let other: TClient;
let driver: TClient;
let operator: TClient;
let anon: TClient;
let shipperId: number;

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const FUTURE = "2099-03-01";

const upload = async (
  who: TClient,
  fields: { kind?: string; file?: { data: Uint8Array; name: string; type: string } },
) => {
  const form = new FormData();
  if (fields.kind !== undefined) form.set("kind", fields.kind);
  if (fields.file)
    form.set("file", new File([new Uint8Array(fields.file.data)], fields.file.name, { type: fields.file.type }));
  const res = await t.app.handle(
    new Request("http://localhost/api/verification/files", {
      method: "POST",
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1" },
      body: form,
    }),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
};
const pdf = (who: TClient, kind: string) =>
  upload(who, { kind, file: { data: PDF, name: `${kind}.pdf`, type: "application/pdf" } });

const download = async (who: TClient, id: number | string) => {
  const res = await t.app.handle(
    new Request(`http://localhost/api/verification/files/${id}`, {
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1" },
    }),
  );
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
};

/** A complete Ethiopian submission: trade licence and TIN with the licence's copy, insurance with its certificate. */
const submitEthiopian = async (who: TClient, over: Record<string, unknown> = {}) => {
  const licence = (await pdf(who, "trade_licence")).json.id;
  const insurance = (await pdf(who, "insurance")).json.id;
  return who.post("/api/verification", {
    country: "ET",
    tradeLicenceNumber: "AA/14/1234/2016",
    tin: "0012345678",
    insuranceExpiresOn: FUTURE,
    fileIds: [licence, insurance],
    ...over,
  });
};

const runJobs = async (clock = Date.now) => {
  const w = startWorker({
    clock,
    db: t.db,
    log: logger,
    handlers: jobHandlers({
      notifiers: notifiersFromEnv({}, { vapidKeyFile: null }),
      baseUrl: "https://mytess.example",
    }),
    schedules: [],
    autoStart: false,
  });
  while ((await w.runOnce()) > 0);
};

const bell = async (who: TClient) =>
  ((await who.get("/api/notifications")).json.items as { title: string; body: string }[]).map(
    (n) => `${n.title}: ${n.body}`,
  );

const issuePaths = (json: { issues?: { path: string | string[] }[] }) =>
  (json.issues ?? []).map((i) => (Array.isArray(i.path) ? i.path.join(".") : i.path));

beforeEach(async () => {
  t = await createTestApp();
  [shipper, other, driver, operator, anon] = [1, 2, 3, 4, 5].map(() => createClient(t));
  shipperId = (await registerUser(shipper, "shipper")).id;
  await registerUser(other, "shipper");
  await registerUser(driver, "driver");
  const op = await registerUser(operator, "shipper");
  await t.db.insert(operators).values({ userId: op.id, grantedAt: Date.now() });
});

describe("verification submissions", () => {
  test("a shipper uploads a trade licence and insurance, submits; it is pending with its files, no badge yet", async () => {
    expect((await shipper.get("/api/verification")).json).toEqual({ current: null, badge: null });
    const res = await submitEthiopian(shipper);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: "pending",
      country: "ET",
      tradeLicenceNumber: "AA/14/1234/2016",
      tin: "0012345678",
      insuranceExpiresOn: FUTURE,
      subject: { type: "user", id: shipperId },
      reason: null,
    });
    expect(res.json.files.map((f: { kind: string }) => f.kind)).toEqual(["trade_licence", "insurance"]);
    const mine = (await shipper.get("/api/verification")).json;
    expect(mine.current.id).toBe(res.json.id);
    expect(mine.badge).toBeNull();
    const file = await download(shipper, res.json.files[0].id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(file.body).equals(Buffer.from(PDF))).toBe(true);
  });

  test("a US carrier gives an MC and a DOT number (an MC- prefix is taken off); a driver's licence photo loses its metadata", async () => {
    const photo = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#884422" } })
      .jpeg()
      .withExif({ IFD0: { Make: "TestPhone" } })
      .toBuffer();
    const licence = await upload(driver, {
      kind: "drivers_licence",
      file: { data: photo, name: "licence.jpg", type: "image/jpeg" },
    });
    expect(licence.status).toBe(201);
    const res = await driver.post("/api/verification", {
      country: "US",
      mcNumber: "MC-123456",
      dotNumber: "1234567",
      fileIds: [licence.json.id],
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ mcNumber: "123456", dotNumber: "1234567", tin: null, insuranceExpiresOn: null });
    const stored = await download(driver, licence.json.id);
    const meta = await sharp(stored.body).metadata();
    expect([meta.width, meta.exif]).toEqual([2000, undefined]);
  });

  test("bad input is a 400 naming the field", async () => {
    const licence = (await pdf(shipper, "trade_licence")).json.id;
    const base = { country: "ET", tradeLicenceNumber: "AA/1234", tin: "0012345678", fileIds: [licence] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, tin: "12345" }, "tin"],
      [{ ...base, tin: "001234567X" }, "tin"],
      [{ ...base, tin: undefined }, "tin"],
      [{ ...base, tradeLicenceNumber: undefined }, "tradeLicenceNumber"],
      [{ ...base, country: "KE" }, "country"],
      [{ ...base, mcNumber: "123" }, "mcNumber"],
      [{ country: "US", fileIds: [] }, "mcNumber"],
      [{ country: "US", dotNumber: "12AB", fileIds: [] }, "dotNumber"],
      [{ country: "US", mcNumber: "1234567890", fileIds: [] }, "mcNumber"],
      [{ ...base, insuranceExpiresOn: "2027-02-30" }, "insuranceExpiresOn"],
      [{ ...base, fileIds: ["x"] }, "fileIds.0"],
      [{ ...base, fileIds: [] }, "fileIds"],
      [{ ...base, insuranceExpiresOn: FUTURE }, "fileIds"],
      [{ ...base, insuranceExpiresOn: "2020-01-01" }, "insuranceExpiresOn"],
    ];
    for (const [body, field] of cases) {
      const res = await shipper.post("/api/verification", body);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(issuePaths(res.json)).toContain(field);
    }
    const insurance = (await pdf(shipper, "insurance")).json.id;
    const noDate = await shipper.post("/api/verification", { ...base, fileIds: [licence, insurance] });
    expect([noDate.status, issuePaths(noDate.json)]).toEqual([400, ["insuranceExpiresOn"]]);
    // Nothing was half-written.
    expect((await shipper.get("/api/verification")).json.current).toBeNull();

    const badKind = await pdf(shipper, "passport");
    expect([badKind.status, issuePaths(badKind.json)]).toEqual([400, ["kind"]]);
    const text = await upload(shipper, {
      kind: "trade_licence",
      file: { data: new TextEncoder().encode("hello"), name: "a.txt", type: "text/plain" },
    });
    expect([text.status, issuePaths(text.json)]).toEqual([400, ["file"]]);
    const none = await upload(shipper, { kind: "trade_licence" });
    expect(none.status).toBe(400);
    expect(issuePaths(none.json)).toContain("file");
    expect((await download(shipper, "abc")).status).toBe(400);
  });

  test("one submission waits at a time (409); the files of one cannot be reused by the next (400)", async () => {
    const first = await submitEthiopian(shipper);
    expect(first.status).toBe(201);
    expect((await submitEthiopian(shipper)).status).toBe(409);
    const again = await shipper.post("/api/verification", {
      country: "ET",
      tradeLicenceNumber: "AA/1234",
      tin: "0012345678",
      fileIds: [first.json.files[0].id],
    });
    expect([again.status, issuePaths(again.json)]).toEqual([400, ["fileIds"]]);
  });

  test("another account's files are 404 to download and to submit; signed out is 401 everywhere", async () => {
    const mine = await submitEthiopian(shipper);
    const fileId = mine.json.files[0].id;
    expect((await download(other, fileId)).status).toBe(404);
    expect((await download(driver, fileId)).status).toBe(404);
    const stolen = await other.post("/api/verification", {
      country: "ET",
      tradeLicenceNumber: "AA/1234",
      tin: "0012345678",
      fileIds: [fileId],
    });
    expect(stolen.status).toBe(404);
    const loose = (await pdf(shipper, "trade_licence")).json.id;
    expect((await download(other, loose)).status).toBe(404);
    expect(
      (
        await other.post("/api/verification", {
          country: "ET",
          tradeLicenceNumber: "AA/1234",
          tin: "0012345678",
          fileIds: [loose],
        })
      ).status,
    ).toBe(404);
    expect((await other.get("/api/verification")).json.current).toBeNull();

    expect((await anon.get("/api/verification")).status).toBe(401);
    expect((await anon.post("/api/verification", { country: "ET" })).status).toBe(401);
    expect((await pdf(anon, "trade_licence")).status).toBe(401);
    expect((await download(anon, fileId)).status).toBe(401);
    expect((await anon.get("/api/verification/submissions")).status).toBe(401);
    expect((await anon.post(`/api/verification/submissions/${mine.json.id}/approve`)).status).toBe(401);
    expect((await anon.post(`/api/verification/submissions/${mine.json.id}/reject`, { reason: "x" })).status).toBe(401);
  });
});

describe("operator review", () => {
  test("the operator lists pending submissions with their files and reads them; everyone else gets 404", async () => {
    const mine = await submitEthiopian(shipper);
    const list = await operator.get("/api/verification/submissions");
    expect(list.status).toBe(200);
    expect(list.json.map((s: { id: number }) => s.id)).toEqual([mine.json.id]);
    expect(list.json[0].subject.name).toBe("Hana Alemu");
    expect(list.json[0].files).toHaveLength(2);
    expect((await download(operator, mine.json.files[1].id)).status).toBe(200);
    expect((await operator.get("/api/verification/submissions?status=approved")).json).toEqual([]);
    const badStatus = await operator.get("/api/verification/submissions?status=lost");
    expect([badStatus.status, issuePaths(badStatus.json)]).toEqual([400, ["status"]]);

    for (const who of [shipper, other, driver]) {
      expect((await who.get("/api/verification/submissions")).status).toBe(404);
      expect((await who.post(`/api/verification/submissions/${mine.json.id}/approve`)).status).toBe(404);
      expect((await who.post(`/api/verification/submissions/${mine.json.id}/reject`, { reason: "no" })).status).toBe(
        404,
      );
    }
    expect((await shipper.get("/api/verification")).json.current.status).toBe("pending");
  });

  test("approval gives the badge with what was verified and tells the owner; a second decision is 409", async () => {
    const mine = await submitEthiopian(shipper);
    const res = await operator.post(`/api/verification/submissions/${mine.json.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("approved");
    const { badge, current } = (await shipper.get("/api/verification")).json;
    expect(current.status).toBe("approved");
    expect(badge).toMatchObject({
      tradeLicence: true,
      tin: true,
      mc: false,
      dot: false,
      driversLicence: false,
      insuranceUntil: FUTURE,
      insuranceLapsed: false,
    });
    expect((await operator.post(`/api/verification/submissions/${mine.json.id}/reject`, { reason: "x" })).status).toBe(
      409,
    );
    expect((await operator.post("/api/verification/submissions/99999/approve")).status).toBe(404);
    await runJobs();
    expect(await bell(shipper)).toEqual([
      "You are verified: Your verification was approved: your loads and bids now show the Verified badge.",
    ]);
  });

  test("rejection needs a reason, tells the owner why, and the owner can submit again", async () => {
    const mine = await submitEthiopian(shipper);
    const noReason = await operator.post(`/api/verification/submissions/${mine.json.id}/reject`, { reason: " " });
    expect([noReason.status, issuePaths(noReason.json)]).toEqual([400, ["reason"]]);
    const badId = await operator.post("/api/verification/submissions/abc/approve");
    expect(badId.status).toBe(400);
    const res = await operator.post(`/api/verification/submissions/${mine.json.id}/reject`, {
      reason: "The licence copy is unreadable",
    });
    expect(res.json).toMatchObject({ status: "rejected", reason: "The licence copy is unreadable" });
    expect((await shipper.get("/api/verification")).json).toMatchObject({
      current: { status: "rejected", reason: "The licence copy is unreadable" },
      badge: null,
    });
    await runJobs();
    expect(await bell(shipper)).toEqual([
      "Verification not approved: Your verification was not approved: The licence copy is unreadable. You can correct it and submit again.",
    ]);
    const again = await submitEthiopian(shipper);
    expect(again.status).toBe(201);
    expect(again.json.status).toBe("pending");
  });
});

describe("insurance lapsing", () => {
  test("14 days before its last day the owner is told once; after it the badge says the insurance lapsed, the rest holds", async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const mine = await submitEthiopian(shipper, { insuranceExpiresOn: "2099-03-01" });
    await operator.post(`/api/verification/submissions/${mine.json.id}/approve`);
    await runJobs();
    const before = await bell(shipper);
    // Addis Ababa's 2099-02-14 (UTC+3): 15 days before; nothing yet.
    const at = (day: string) => Date.parse(`${day}T09:00:00+03:00`);
    expect(await remindExpiringInsurance(t.db, at("2099-02-14"))).toBe(0);
    expect(await remindExpiringInsurance(t.db, at("2099-02-15"))).toBe(1);
    expect(await remindExpiringInsurance(t.db, at("2099-02-16"))).toBe(0);
    await runJobs(() => at("2099-02-16"));
    expect((await bell(shipper)).filter((n) => !before.includes(n))).toEqual([
      "Your insurance expires soon: Your insurance certificate expires on 2099-03-01. Submit the new certificate so your badge keeps showing insurance.",
    ]);
    const badgeOn = async (ms: number) => (await badgesFor(t.db, [shipperId], ms)).get(shipperId);
    expect(await badgeOn(at("2099-03-01"))).toMatchObject({ insuranceLapsed: false, tradeLicence: true, tin: true });
    expect(await badgeOn(at("2099-03-01") + DAY)).toMatchObject({
      insuranceUntil: "2099-03-01",
      insuranceLapsed: true,
      tradeLicence: true,
      tin: true,
    });
    expect(at("2099-03-01") + DAY).toBeGreaterThan(Date.now());
  });
});
