// Starts the three carrier emulators on loopback ports (0 = any free port). Used by tests, the benchmark and demo mode.
import { createFedexEmulator } from "./fedex";
import { createUpsEmulator } from "./ups";
import { createUspsEmulator } from "./usps";

export const EMULATOR_CREDENTIALS = {
  fedex: { clientId: "fedex-sandbox-key", clientSecret: "fedex-sandbox-secret", accountNumber: "740561073" },
  ups: { clientId: "ups-sandbox-client", clientSecret: "ups-sandbox-secret", accountNumber: "A1B2C3" },
  usps: { clientId: "usps-sandbox-client", clientSecret: "usps-sandbox-secret" },
} as const;

/** The environment that points MyTess's carrier adapters at running emulators. */
export const emulatorEnv = (urls: { fedex: string; ups: string; usps: string }): Record<string, string> => ({
  FEDEX_BASE_URL: urls.fedex,
  FEDEX_CLIENT_ID: EMULATOR_CREDENTIALS.fedex.clientId,
  FEDEX_CLIENT_SECRET: EMULATOR_CREDENTIALS.fedex.clientSecret,
  FEDEX_ACCOUNT_NUMBER: EMULATOR_CREDENTIALS.fedex.accountNumber,
  UPS_BASE_URL: urls.ups,
  UPS_CLIENT_ID: EMULATOR_CREDENTIALS.ups.clientId,
  UPS_CLIENT_SECRET: EMULATOR_CREDENTIALS.ups.clientSecret,
  UPS_ACCOUNT_NUMBER: EMULATOR_CREDENTIALS.ups.accountNumber,
  USPS_BASE_URL: urls.usps,
  USPS_CLIENT_ID: EMULATOR_CREDENTIALS.usps.clientId,
  USPS_CLIENT_SECRET: EMULATOR_CREDENTIALS.usps.clientSecret,
});

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
