// Starts the four load-board emulators on loopback ports (0 = any free port). Used by tests and demo mode; run it
// directly (`bun emulators/boards/server.ts`) for fixed ports 4111–4114.
import { createDatEmulator } from "./dat";
import { createFeedEmulator } from "./feed";
import { createLoadboard123Emulator } from "./loadboard123";
import { createTruckstopEmulator } from "./truckstop";

/** The credentials every emulator accepts: each field is "sandbox". */
export const BOARD_SANDBOX_CREDENTIALS = {
  dat: { clientId: "sandbox", clientSecret: "sandbox", userEmail: "sandbox" },
  truckstop: { username: "sandbox", password: "sandbox", integrationId: "sandbox" },
  "123loadboard": { clientId: "sandbox", clientSecret: "sandbox" },
  other: { apiKey: "sandbox" },
} as const;

export type TBoardEmulatorPorts = { dat?: number; truckstop?: number; "123loadboard"?: number; other?: number };

const serve = (handle: (r: Request) => Promise<Response>, port: number) =>
  Bun.serve({ port, hostname: "127.0.0.1", fetch: handle });

export const startBoardEmulators = (ports: TBoardEmulatorPorts = {}) => {
  const dat = createDatEmulator();
  const truckstop = createTruckstopEmulator();
  const lb123 = createLoadboard123Emulator();
  const feed = createFeedEmulator();
  const servers = {
    dat: serve(dat.handle, ports.dat ?? 0),
    truckstop: serve(truckstop.handle, ports.truckstop ?? 0),
    "123loadboard": serve(lb123.handle, ports["123loadboard"] ?? 0),
    other: serve(feed.handle, ports.other ?? 0),
  };
  const url = (s: ReturnType<typeof serve>) => `http://127.0.0.1:${s.port}`;
  return {
    urls: {
      dat: url(servers.dat),
      truckstop: url(servers.truckstop),
      "123loadboard": url(servers["123loadboard"]),
      other: url(servers.other),
    },
    controls: { dat: dat.control, truckstop: truckstop.control, "123loadboard": lb123.control, other: feed.control },
    stop: () => {
      for (const s of Object.values(servers)) s.stop(true);
    },
  };
};

if (import.meta.main) {
  const e = startBoardEmulators({ dat: 4111, truckstop: 4112, "123loadboard": 4113, other: 4114 });
  console.log("Load-board emulators:", e.urls, 'credentials: every field is "sandbox"');
}
