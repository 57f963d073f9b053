// Starts the three carrier emulators on loopback ports (0 = any free port). Used by tests, the benchmark and demo mode.
import { createFedexEmulator } from "./fedex";
import { createUpsEmulator } from "./ups";
import { createUspsEmulator } from "./usps";

export const EMULATOR_CREDENTIALS = {
  fedex: { clientId: "fedex-sandbox-key", clientSecret: "fedex-sandbox-secret", accountNumber: "740561073" },
  ups: { clientId: "ups-sandbox-client", clientSecret: "ups-sandbox-secret", accountNumber: "A1B2C3" },
  usps: { clientId: "usps-sandbox-client", clientSecret: "usps-sandbox-secret" },
} as const;

const serve = (handle: (r: Request) => Promise<Response>, port: number) =>
  Bun.serve({ port, hostname: "127.0.0.1", fetch: handle });

export const startCarrierEmulators = (ports: { fedex?: number; ups?: number; usps?: number } = {}) => {
  const fedex = createFedexEmulator(EMULATOR_CREDENTIALS.fedex);
  const ups = createUpsEmulator(EMULATOR_CREDENTIALS.ups);
  const usps = createUspsEmulator(EMULATOR_CREDENTIALS.usps);
  const servers = {
    fedex: serve(fedex.handle, ports.fedex ?? 0),
    ups: serve(ups.handle, ports.ups ?? 0),
    usps: serve(usps.handle, ports.usps ?? 0),
  };
  const url = (s: ReturnType<typeof serve>) => `http://127.0.0.1:${s.port}`;
  return {
    urls: { fedex: url(servers.fedex), ups: url(servers.ups), usps: url(servers.usps) },
    controls: { fedex: fedex.control, ups: ups.control, usps: usps.control },
    stop: () => {
      for (const s of Object.values(servers)) s.stop(true);
    },
  };
};

if (import.meta.main) {
  const e = startCarrierEmulators({ fedex: 4101, ups: 4102, usps: 4103 });
  console.log("Carrier emulators:", e.urls);
}
