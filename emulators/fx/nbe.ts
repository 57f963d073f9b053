// An emulator of the National Bank of Ethiopia's exchange-rate API, answering as the bank does:
// `GET /api/filter-exchange-rates?date=YYYY-MM-DD` → `{success, message, status, data: [{buying, selling, date,
// weighted_average, currency: {name, code}}]}`, numbers as strings, birr per unit of each currency. The bank publishes
// on working days only: for a weekend or a holiday it answers the last working day's rows, which carry that day's
// date, so nothing new appears. It also leaves a currency out of a day's list at times, lists XDR (the IMF's unit),
// and sometimes fails. Rates are a deterministic function of the day, so tests know what to expect.
//
// Test doors (besides the control object): POST /_emulator/holidays {"days": [...]}, POST /_emulator/missing
// {"day", "codes": [...]}, POST /_emulator/fail {"times": n, "status": 500}, GET /_emulator/requests.
import { withControl } from "../notifiers/control";

const NAMES: Record<string, string> = {
  USD: "US DOLLAR",
  EUR: "EURO",
  GBP: "POUND STERLING",
  CAD: "CANADIAN DOLLAR",
  CHF: "SWISS FRANC",
  AED: "UAE DIRHAM",
  SAR: "SAUDI RIYAL",
  CNY: "CHINESE YUAN",
  XDR: "SDR",
};
/** What a dollar buys of each currency on the emulator's first day; the birr moves a little every day. */
const PER_USD: Record<string, number> = {
  EUR: 0.86,
  GBP: 0.75,
  CAD: 1.38,
  CHF: 0.8,
  AED: 3.6725,
  SAR: 3.75,
  CNY: 7.1,
  XDR: 0.73,
};
const EPOCH = Date.UTC(2024, 9, 1);
const DAY_MS = 86_400_000;

const dayNumber = (day: string) => Math.round((Date.parse(`${day}T00:00:00Z`) - EPOCH) / DAY_MS);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The birr's weighted average per dollar on a working day: 150 birr, up 0.05 a day, with a weekly wobble. */
export const nbeUsdRate = (day: string) => {
  const n = dayNumber(day);
  return Math.round((150 + n * 0.05 + (n % 7) * 0.013) * 10_000) / 10_000;
};

/** Birr per unit of `code` on a working day, as the emulator publishes it (4 decimals, as the bank's figures). */
export const nbeBirrPer = (code: string, day: string) => {
  const usd = nbeUsdRate(day);
  return code === "USD" ? usd : Math.round((usd / PER_USD[code]) * 10_000) / 10_000;
};

export type TNbeControl = {
  /** Days the bank did not publish (weekends never publish). */
  holidays: Set<string>;
  /** Currencies left out of a day's list. */
  missing: Map<string, Set<string>>;
  /** The next `times` requests fail with `status` (the bank's site answers an HTML error page then). */
  failNext: (times: number, status?: number) => void;
  /** Every date asked for, in order. */
  requests: string[];
};

export const createNbeEmulator = () => {
  const control: TNbeControl = {
    holidays: new Set(),
    missing: new Map(),
    failNext: (times, status = 500) => {
      failures = { times, status };
    },
    requests: [],
  };
  let failures = { times: 0, status: 500 };
  const working = (day: string) => {
    const wd = new Date(`${day}T00:00:00Z`).getUTCDay();
    return wd !== 0 && wd !== 6 && !control.holidays.has(day);
  };
  /** The working day a request for `day` is answered with: itself, else the last one before it. */
  const publishedFor = (day: string) => {
    let ms = Date.parse(`${day}T00:00:00Z`);
    for (let i = 0; i < 30 && !working(isoDay(ms)); i++) ms -= DAY_MS;
    return isoDay(ms);
  };
  const handle = (req: Request): Response => {
    const url = new URL(req.url);
    if (req.method !== "GET" || url.pathname !== "/api/filter-exchange-rates")
      return new Response("<html><title>404 Not Found</title></html>", {
        status: 404,
        headers: { "Content-Type": "text/html" },
      });
    const date = url.searchParams.get("date") ?? "";
    control.requests.push(date);
    if (failures.times > 0) {
      failures.times--;
      return new Response("<html><head><title>Service Unavailable</title></head></html>", {
        status: failures.status,
        headers: { "Content-Type": "text/html" },
      });
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
      return Response.json(
        { success: false, message: "The date field must be a valid date.", status: 422 },
        { status: 422 },
      );
    const day = publishedFor(date);
    // Before the bank's series starts there is nothing to publish.
    if (dayNumber(day) < 0) return Response.json({ success: true, message: "OK", status: 200, data: [] });
    const left = control.missing.get(day) ?? new Set<string>();
    const data = Object.keys(NAMES)
      .filter((code) => !left.has(code))
      .map((code) => {
        const mid = nbeBirrPer(code, day);
        return {
          buying: mid.toFixed(4),
          selling: (mid * 1.01).toFixed(4),
          date: day,
          weighted_average: mid.toFixed(4),
          currency: { name: NAMES[code], code },
        };
      });
    return Response.json(
      { success: true, message: "OK", status: 200, data },
      { headers: { "X-Ratelimit-Limit": "60", "Cache-Control": "no-cache, private" } },
    );
  };
  return { control, handle };
};

/** Starts the emulator on loopback (port 0: any free one). */
export const startNbeEmulator = (port = 0) => {
  const { control, handle } = createNbeEmulator();
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch: withControl(
      [
        [
          "POST",
          /^\/_emulator\/holidays$/,
          (_, b) => {
            for (const d of b.days as string[]) control.holidays.add(d);
          },
        ],
        [
          "POST",
          /^\/_emulator\/missing$/,
          (_, b) => void control.missing.set(String(b.day), new Set(b.codes as string[])),
        ],
        ["POST", /^\/_emulator\/fail$/, (_, b) => control.failNext(Number(b.times ?? 1), Number(b.status ?? 500))],
        ["GET", /^\/_emulator\/requests$/, () => control.requests],
      ],
      handle,
    ),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return { url, control, stop: () => server.stop(true) };
};

if (import.meta.main) {
  const e = startNbeEmulator(4141);
  console.log(`National Bank of Ethiopia emulator: ${e.url} (FX_SOURCE_URL=${e.url})`);
}
