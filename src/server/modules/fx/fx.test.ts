import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { nbeBirrPer, nbeUsdRate, startNbeEmulator } from "../../../../emulators/fx/nbe";
import { AppError } from "../../errors";
import { createNbeSource } from "../../integrations/fx/nbe";
import { bindJobs, runWorker } from "../../jobs/worker";
import { logger } from "../../logger";
import { closeTestApps, createClient, createTestApp, type TTestApp } from "../../testing";
import { fxRatesJob } from "./jobs";
import { fxDay, refreshRates, setOverride, syncRates } from "./rates";

setDefaultTimeout(60_000);

const emu = startNbeEmulator();
afterAll(() => emu.stop());
const source = createNbeSource({ baseUrl: emu.url, timeoutMs: 5000, sandbox: true });

/** Noon in Addis Ababa on `day`. */
const at = (day: string) => Date.parse(`${day}T09:00:00Z`);
const THU = "2026-11-26";

let t: TTestApp;
beforeEach(async () => {
  emu.control.holidays.clear();
  emu.control.missing.clear();
  emu.control.failNext(0);
  emu.control.requests.length = 0;
  t = await createTestApp({ fx: { sourceUrl: emu.url, timeoutMs: 5000 } });
});
afterEach(closeTestApps);

const inUse = async (currency: string) => (await refreshRates(t.db, at(THU))).find((r) => r.currency === currency)!;
const historyCount = async () =>
  Number((await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from fx_rate_history"))[0]!.n);

describe("the National Bank of Ethiopia adapter against its emulator", () => {
  test("a working day: birr per unit becomes units per dollar, each rate of its own day", async () => {
    const [day] = await source.ratesOf(THU);
    expect(day!.day).toBe(THU);
    expect(day!.perUsd.get("ETB")).toBe(nbeUsdRate(THU));
    expect(day!.perUsd.get("EUR")).toBeCloseTo(nbeUsdRate(THU) / nbeBirrPer("EUR", THU), 10);
    expect(day!.perUsd.get("EUR")).toBeCloseTo(0.86, 3);
    expect(day!.perUsd.has("USD")).toBe(false);
  });

  test("a weekend or a holiday brings the last working day's rates, under that day's date; a missing currency is absent", async () => {
    expect((await source.ratesOf("2026-11-28")).map((d) => d.day)).toEqual(["2026-11-27"]);
    emu.control.holidays.add("2026-11-27");
    expect((await source.ratesOf("2026-11-29")).map((d) => d.day)).toEqual([THU]);
    emu.control.missing.set(THU, new Set(["CAD"]));
    const [day] = await source.ratesOf(THU);
    expect(day!.perUsd.has("CAD")).toBe(false);
    expect(day!.perUsd.has("GBP")).toBe(true);
    // Without the dollar no rate can be put per dollar: the day counts as not published.
    emu.control.missing.set(THU, new Set(["USD"]));
    expect(await source.ratesOf(THU)).toEqual([]);
  });

  test("the bank's failures are errors that name it", async () => {
    emu.control.failNext(1, 503);
    const failed = await source.ratesOf(THU).catch((e) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed.code).toBe("BAD_GATEWAY");
    expect(failed.message).toBe("National Bank of Ethiopia (Sandbox) failed: Service Unavailable (HTTP 503)");
    const refused = await source.ratesOf("26/11/2026").catch((e) => e);
    expect(refused.message).toBe(
      "National Bank of Ethiopia (Sandbox) rejected the request: The date field must be a valid date.",
    );
  });
});

describe("the daily rates", () => {
  test("first start: the fixed rates, labelled as such; a failing source leaves them", async () => {
    const rates = (await createClient(t).get("/api/fx-rates")).json as { code: string }[];
    expect(rates.find((r) => r.code === "ETB")).toMatchObject({ exchangeRate: 60.5, rateDate: null, source: "seed" });
    emu.control.failNext(1);
    await expect(syncRates(t.db, source, at(THU))).rejects.toThrow("failed");
    expect(await inUse("ETB")).toMatchObject({ ratePerUsd: 60.5, source: "seed", rateDate: null });
  });

  test("a run records the days it lacks (a week back at most), once: a second run asks only the newest day again", async () => {
    const days = await syncRates(t.db, source, at(THU));
    // Fri 20th to Thu 26th: the weekend answers Friday's rates, recorded once.
    expect(days).toEqual(["2026-11-20", "2026-11-23", "2026-11-24", "2026-11-25", THU]);
    expect(emu.control.requests).toEqual([
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      THU,
    ]);
    // Four currencies the app knows (EUR, ETB, GBP, CAD) on five days; the bank's others (CHF, XDR…) are not kept.
    expect(await historyCount()).toBe(20);
    expect(await inUse("ETB")).toMatchObject({ ratePerUsd: nbeUsdRate(THU), rateDate: THU, source: "source" });
    expect(await inUse("USD")).toMatchObject({ ratePerUsd: 1, rateDate: THU, source: "source" });
    const api = (await createClient(t).get("/api/fx-rates")).json as { code: string }[];
    expect(api.find((r) => r.code === "EUR")).toMatchObject({ rateDate: THU, source: "source" });

    emu.control.requests.length = 0;
    await syncRates(t.db, source, at(THU));
    await Promise.all([syncRates(t.db, source, at(THU)), syncRates(t.db, source, at(THU))]);
    expect(emu.control.requests).toEqual([THU, THU, THU]);
    expect(await historyCount()).toBe(20);
  });

  test("a holiday brings no new rate: the app keeps the last day's and says which day it is of", async () => {
    await syncRates(t.db, source, at(THU));
    emu.control.holidays.add("2026-11-27");
    expect(await syncRates(t.db, source, at("2026-11-27"))).toEqual([THU]);
    expect(await historyCount()).toBe(20);
    const rates = (await refreshRates(t.db, at("2026-11-27"))).filter((r) => r.currency !== "USD");
    expect(rates.every((r) => r.rateDate === THU)).toBe(true);
  });

  test("a currency missing from a day's list keeps its last rate and day; the others move on", async () => {
    await syncRates(t.db, source, at(THU));
    emu.control.missing.set("2026-11-30", new Set(["GBP"]));
    await syncRates(t.db, source, at("2026-11-30"));
    const rates = await refreshRates(t.db, at("2026-11-30"));
    expect(rates.find((r) => r.currency === "ETB")).toMatchObject({ rateDate: "2026-11-30" });
    expect(rates.find((r) => r.currency === "GBP")).toMatchObject({
      rateDate: "2026-11-27",
      ratePerUsd: nbeUsdRate("2026-11-27") / nbeBirrPer("GBP", "2026-11-27"),
    });
  });

  test("an operator's override wins through its last day, then the published rate is back", async () => {
    await syncRates(t.db, source, at("2026-11-30"));
    const set = await setOverride(t.db, { currency: "ETB", ratePerUsd: 155, until: "2026-12-01" }, at("2026-11-30"));
    expect(set).toMatchObject({
      ratePerUsd: 155,
      source: "operator",
      rateDate: "2026-11-30",
      validUntil: "2026-12-01",
    });
    // The job's run on the last day keeps it; the first run after it ends brings the bank's rate back.
    await syncRates(t.db, source, at("2026-12-01"));
    const onLastDay = (await refreshRates(t.db, at("2026-12-01"))).find((r) => r.currency === "ETB");
    expect(onLastDay).toMatchObject({ ratePerUsd: 155, source: "operator" });
    // Late on the last day in Addis Ababa (23:30, 20:30 UTC) it still holds; half an hour later it has ended.
    expect(
      (await refreshRates(t.db, Date.parse("2026-12-01T20:30:00Z"))).find((r) => r.currency === "ETB")!.source,
    ).toBe("operator");
    emu.control.failNext(5);
    // The source failing does not keep an expired override in use.
    await expect(syncRates(t.db, source, Date.parse("2026-12-01T21:30:00Z"))).rejects.toThrow("failed");
    const [etb] = await t.rows<{ r: number; d: string; s: string }>(
      "select rate_per_usd r, rate_date d, source s from fx_rates where currency = 'ETB'",
    );
    expect(etb).toEqual({ r: nbeUsdRate("2026-12-01"), d: "2026-12-01", s: "source" });
  });

  test("an override without an end holds until replaced; bad overrides name the field and change nothing", async () => {
    await setOverride(t.db, { currency: "etb", ratePerUsd: 150 }, at(THU));
    expect((await refreshRates(t.db, at("2027-06-01"))).find((r) => r.currency === "ETB")).toMatchObject({
      ratePerUsd: 150,
      validUntil: null,
    });
    const past = await setOverride(t.db, { currency: "ETB", ratePerUsd: 1, until: "2026-11-25" }, at(THU)).catch(
      (e) => e,
    );
    expect(past).toBeInstanceOf(AppError);
    expect(past.issues).toEqual([{ path: "until", message: "before today" }]);
    const usd = await setOverride(t.db, { currency: "USD", ratePerUsd: 2 }, at(THU)).catch((e) => e);
    expect(usd.issues).toEqual([{ path: "currency", message: "no rate to set" }]);
    const xyz = await setOverride(t.db, { currency: "XYZ", ratePerUsd: 2 }, at(THU)).catch((e) => e);
    expect(xyz.message).toBe("XYZ has no exchange rate to set (rates are per US dollar)");
    expect((await refreshRates(t.db, at(THU))).find((r) => r.currency === "ETB")!.ratePerUsd).toBe(150);
  });

  test("the hourly job runs through the worker and fetches today's rates from the configured source", async () => {
    const worker = runWorker({
      db: t.db,
      log: { ...logger, info: () => {}, warn: () => {} },
      handlers: bindJobs([fxRatesJob], t.services, "http://localhost"),
      autoStart: false,
    });
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    const [job] = await t.rows<{ kind: string; status: string }>("select kind, status from jobs");
    expect(job).toEqual({ kind: "fx_rates", status: "done" });
    expect(emu.control.requests.at(-1)).toBe(fxDay(Date.now()));
    const [etb] = await t.rows<{ s: string; d: string }>(
      "select source s, rate_date d from fx_rates where currency = 'ETB'",
    );
    expect(etb!.s).toBe("source");
    expect(etb!.d <= fxDay(Date.now())).toBe(true);
  });
});
