// Rate shopping against the carrier emulators with FedEx, UPS and USPS slowed to 300, 500 and 800 ms: the carriers
// are asked at the same time, so a shop should take about as long as the slowest, not their sum. Also counts OAuth
// token requests over many rate requests (one per carrier is the target).
//   bun bench/rate-shopping.ts --requests 100
import { parseArgs } from "node:util";
import { emulatorEnv, startCarrierEmulators } from "../emulators/carriers/server";
import { carriersFromEnv } from "../src/server/integrations/carriers/registry";
import { shopRates } from "../src/server/modules/shipping/shipping";
import { ZRatesInput } from "../src/shared/schemas/shipping";
import { percentile } from "./lib/generate";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "100" }, concurrency: { type: "string", default: "10" } },
});
const N = Number(values.requests);
const C = Number(values.concurrency);
const DELAYS = { fedex: 300, ups: 500, usps: 800 };

const emu = startCarrierEmulators();
for (const [id, ms] of Object.entries(DELAYS)) emu.controls[id as keyof typeof DELAYS].delayMs = ms;
// The benchmark measures waiting on carriers, not a new USPS app's hourly quota: both sides lift it.
emu.controls.usps.hourlyQuota = null;
const carriers = carriersFromEnv({
  CARRIER_TIMEOUT_MS: "5000",
  USPS_HOURLY_QUOTA: "0",
  ...emulatorEnv(emu.urls),
});
const input = ZRatesInput.parse({
  shipper: { street1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014" },
  recipient: { street1: "350 5th Ave", city: "New York", state: "NY", postalCode: "10118" },
  packages: [{ weight: 5, length: 12, width: 10, height: 8 }],
});

try {
  const durations: number[] = [];
  let failures = 0;
  let next = 0;
  // The first shop fetches the tokens (one per carrier); every later one reuses them.
  const worker = async () => {
    while (next < N) {
      next++;
      const t = performance.now();
      const r = await shopRates(carriers, input);
      durations.push(performance.now() - t);
      if (r.errors.length || r.rates.length === 0) failures++;
    }
  };
  await worker(); // one alone first, so the token fetch is counted once and not raced
  await Promise.all(Array.from({ length: C }, worker));
  const steady = durations.slice(1).sort((a, b) => a - b);
  const slowest = Math.max(...Object.values(DELAYS));
  const sum = Object.values(DELAYS).reduce((a, b) => a + b, 0);
  const tokens = Object.fromEntries(Object.entries(emu.controls).map(([id, c]) => [id, c.tokenRequests]));
  const p50 = percentile(steady, 50);
  const p99 = percentile(steady, 99);
  console.log(
    `carrier delays: FedEx ${DELAYS.fedex} ms, UPS ${DELAYS.ups} ms, USPS ${DELAYS.usps} ms (sum ${sum} ms, slowest ${slowest} ms)`,
  );
  console.log(
    `${N} rate shops (${C} at a time after the first): p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms; first (with token requests) ${durations[0].toFixed(0)} ms; ${failures} with errors`,
  );
  console.log(`token requests over ${N} rate requests: FedEx ${tokens.fedex}, UPS ${tokens.ups}, USPS ${tokens.usps}`);
  console.log(
    `targets: total within 100 ms of the slowest carrier (<= ${slowest + 100} ms), one token request per carrier`,
  );
  console.log(
    `requests=${N} slowest_ms=${slowest} sum_ms=${sum} p50_ms=${p50.toFixed(0)} p99_ms=${p99.toFixed(0)} over_slowest_p99_ms=${(p99 - slowest).toFixed(0)} tokens_fedex=${tokens.fedex} tokens_ups=${tokens.ups} tokens_usps=${tokens.usps} failures=${failures}`,
  );
} finally {
  emu.stop();
}
