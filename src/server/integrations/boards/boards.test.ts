import { afterAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { datGaps, isUnreadableDatLoad } from "../../../../emulators/boards/dat";
import { answerSandboxAuthorize, LB123_SANDBOX } from "../../../../emulators/boards/loadboard123";
import { datesOf, startOfDayUtc } from "../../../../emulators/boards/model";
import { BOARD_SANDBOX_CREDENTIALS, startBoardEmulators } from "../../../../emulators/boards/server";
import { EQUIPMENT_TYPES } from "../../../shared/constants";
import { haversineMiles } from "../../../shared/geo";
import type { AppError } from "../../errors";
import { HourlyBudget } from "../http/kit";
import { datEquipmentType, datIdentityBase, datSearchBody, mapDatMatch } from "./dat";
import { FEED_VERSION, feedQuery, parseFeed } from "./feed";
import { jsonReason, northAmericanCountry, northAmericanState, parseBoardDate } from "./http";
import { lb123EquipmentType, lb123SearchBody } from "./loadboard123";
import { LB123_HEADERS, lb123AuthorizeUrl, lb123ExchangeCode, pkcePair } from "./loadboard123-oauth";
import { createBoardAdapter, isSandboxBoardUrl, PRODUCTION_BOARD_URLS } from "./registry";
import {
  escapeXml,
  parseTruckstopAnswer,
  parseXml,
  truckstopCriteria,
  truckstopEnvelope,
  truckstopEquipmentType,
  xmlDescendants,
} from "./truckstop";
import {
  BOARD_NAMES,
  type TBoardLoad,
  type TBoardProvider,
  type TBoardSearch,
  type TBoardSettings,
  type TBoardUserAuth,
  type TBoardUserTokens,
} from "./types";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const emu = startBoardEmulators();
afterAll(() => emu.stop());

const NORTH_AMERICA = ["dat", "truckstop", "123loadboard"] as const;
const ALL = [...NORTH_AMERICA, "other"] as const;

const NAME = "Addis office";
const SANDBOX_ORIGINS = [...Object.values(emu.urls), "http://127.0.0.1:9"];
const REDIRECT = "https://mytess.example/api/marketplaces/123loadboard/callback";

/** A configuration's token store, in memory: what the database is to the server. */
const memoryAuth = (initial: TBoardUserTokens | null) => {
  let tokens = initial;
  let refusal: string | null = null;
  const auth: TBoardUserAuth = {
    load: async () => (refusal ? null : tokens),
    save: async (next, previous) => {
      if (tokens?.refreshToken !== previous.refreshToken) return false;
      tokens = next;
      return true;
    },
    refused: async (reason) => {
      refusal = reason;
    },
  };
  return Object.assign(auth, { tokens: () => tokens, refusal: () => refusal });
};

/** A 123Loadboard user's connection, made as the server makes it: authorize page, Approve, code exchanged. */
const connect123 = async () => {
  const pkce = pkcePair();
  const back = await answerSandboxAuthorize(
    lb123AuthorizeUrl(emu.urls["123loadboard"], {
      clientId: LB123_SANDBOX.clientId,
      redirectUri: REDIRECT,
      state: "s1",
      codeChallenge: pkce.challenge,
    }),
  );
  expect(back.searchParams.get("state")).toBe("s1");
  return lb123ExchangeCode(settings("123loadboard"), {
    code: back.searchParams.get("code")!,
    redirectUri: REDIRECT,
    codeVerifier: pkce.verifier,
  });
};

let lb123: ReturnType<typeof memoryAuth>;
beforeEach(async () => {
  for (const c of Object.values(emu.controls)) c.reset();
  lb123 = memoryAuth(await connect123());
});

const settings = (provider: TBoardProvider, over: Partial<TBoardSettings> = {}): TBoardSettings => ({
  provider,
  name: NAME,
  baseUrl: emu.urls[provider],
  credentials: { ...BOARD_SANDBOX_CREDENTIALS[provider] },
  timeoutMs: 3000,
  rateLimitPerHour: 1000,
  // The emulators, and a closed loopback port for "unreachable": the operator's Sandbox, as demo mode's emulators are.
  sandboxOrigins: SANDBOX_ORIGINS,
  ...(provider === "123loadboard" ? { userAuth: lb123 } : {}),
  ...over,
});
const adapter = (provider: TBoardProvider, over: Partial<TBoardSettings> = {}) =>
  createBoardAdapter(settings(provider, over));
/** The loads of a search (what was read; the unreadable ones are counted apart). */
const loadsOf = async (provider: TBoardProvider, q: TBoardSearch, over: Partial<TBoardSettings> = {}) =>
  (await adapter(provider, over).search(q)).loads;
/** How errors name a configuration's board: "DAT 'Addis office' …". */
const labelOf = (p: TBoardProvider) => `${BOARD_NAMES[p]} '${NAME}'`;

const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a failure");
};

const CHICAGO: TBoardSearch = {
  origin: { latitude: 41.85, longitude: -87.65, city: "Chicago", state: "IL", country: "US" },
  radiusMiles: 100,
  limit: 50,
};
const ADDIS: TBoardSearch = {
  origin: { latitude: 9.0108, longitude: 38.7613, city: "Addis Ababa", country: "ET" },
  radiusMiles: 100,
  limit: 50,
};

const WRONG: Record<TBoardProvider, [Record<string, string>, string]> = {
  dat: [{ clientSecret: "wrong" }, "Invalid service account username or password"],
  truckstop: [{ password: "wrong" }, "Invalid Integration Id, UserName or Password"],
  // 123Loadboard's client is proven when the user's token is renewed (and when a code is exchanged).
  "123loadboard": [{ clientSecret: "wrong" }, "Client authentication failed"],
  // A feed can be on any host a user names: its error body is never repeated, only the status.
  other: [{ apiKey: "wrong" }, "HTTP 401"],
};

const milesFrom = (q: TBoardSearch, l: TBoardLoad) =>
  haversineMiles(q.origin.latitude, q.origin.longitude, l.pickup.latitude!, l.pickup.longitude!);

/** What every mapped load must look like, whatever its board. */
const expectSensible = (q: TBoardSearch, loads: TBoardLoad[]) => {
  const today = startOfDayUtc();
  expect(new Set(loads.map((l) => l.externalId)).size).toBe(loads.length);
  for (const l of loads) {
    expect(l.externalId.length).toBeGreaterThan(0);
    expect(l.title).toContain("→");
    for (const p of [l.pickup, l.delivery]) {
      expect(p.city.length).toBeGreaterThan(1);
      expect(p.country).toMatch(/^[A-Z]{2}$/);
      expect(p.latitude).not.toBeNull();
      expect(p.longitude).not.toBeNull();
    }
    expect(milesFrom(q, l)).toBeLessThanOrEqual(q.radiusMiles);
    expect(l.pickupDate).toBeGreaterThan(today);
    if (l.deliveryDate !== null) expect(l.deliveryDate).toBeGreaterThan(l.pickupDate);
    expect(EQUIPMENT_TYPES).toContain(l.equipmentType);
    if (l.rateMinor !== null) expect(l.rateMinor).toBeGreaterThan(0);
    expect(l.currency).toMatch(/^[A-Z]{3}$/);
    if (l.weightLbs !== null) expect(l.weightLbs).toBeGreaterThan(0);
    // Posters leave some of these out (DAT answers without them): what is given is sensible, and most give it.
    if (l.tripMiles !== null) expect(l.tripMiles).toBeGreaterThan(0);
    expect(l.contact.company).toBeTruthy();
    if (l.contact.phone !== null) expect(l.contact.phone.length).toBeGreaterThan(5);
    if (l.contact.email !== null) expect(l.contact.email).toContain("@");
    expect(l.postedAt).toBeLessThanOrEqual(Date.now());
  }
  expect(loads.filter((l) => l.tripMiles !== null).length).toBeGreaterThan(loads.length / 2);
  expect(loads.filter((l) => l.contact.phone !== null).length).toBeGreaterThan(loads.length / 2);
  expect(loads.filter((l) => l.contact.email !== null).length).toBeGreaterThan(loads.length / 2);
  expect(loads.some((l) => l.rateMinor !== null)).toBe(true);
  expect(loads.some((l) => l.deliveryDate !== null || l.pickup.country === "US")).toBe(true);
};

describe("connection test", () => {
  test.each(ALL)("%s: the sandbox credentials pass, and the address is a sandbox", async (p) => {
    const a = adapter(p);
    await a.test();
    expect(a.sandbox).toBe(true);
    expect(a.provider).toBe(p);
    expect(a.boardName).toBe(BOARD_NAMES[p]);
  });

  test.each(ALL)(
    "%s: other credentials are refused, in the board's words (a feed's status only), naming the configuration",
    async (p) => {
      const [wrong, reason] = WRONG[p];
      const a = adapter(p, { credentials: { ...BOARD_SANDBOX_CREDENTIALS[p], ...wrong } });
      if (p === "123loadboard") emu.controls[p].expireTokens();
      const err = await caught(a.test());
      expect(err.code).toBe("BAD_REQUEST");
      // The board and the configuration, by name.
      expect(err.message).toBe(`${BOARD_NAMES[p]} refused the credentials of '${NAME}': ${reason}`);
      // A search fails the same way.
      expect((await caught(a.search(CHICAGO))).message).toBe(err.message);
    },
  );

  test("a configuration called just like its board is named once", async () => {
    const err = await caught(
      adapter("truckstop", {
        name: "truckstop",
        credentials: { ...BOARD_SANDBOX_CREDENTIALS.truckstop, password: "x" },
      }).test(),
    );
    expect(err.message).toBe("Truckstop refused the credentials: Invalid Integration Id, UserName or Password");
  });

  test("DAT: a user the organization does not know is refused at the second step", async () => {
    const err = await caught(
      adapter("dat", { credentials: { ...BOARD_SANDBOX_CREDENTIALS.dat, userEmail: "x@y" } }).test(),
    );
    expect(err.message).toBe(
      `DAT refused the credentials of '${NAME}': User x@y is not a DAT user of this organization`,
    );
    expect(emu.controls.dat.tokenCalls).toBe(2);
  });
});

describe("search near Chicago", () => {
  test.each(NORTH_AMERICA)("%s: loads within 100 miles, mapped sensibly, as many as the board holds", async (p) => {
    const { loads, skipped } = await adapter(p).search(CHICAGO);
    expectSensible(CHICAGO, loads);
    expect(loads.every((l) => l.currency === "USD")).toBe(true);
    expect(loads.every((l) => ["US", "CA", "MX"].includes(l.delivery.country))).toBe(true);
    // What the board holds there (123Loadboard is asked for truckloads only).
    const held = emu.controls[p]
      .loads()
      .filter((l) => haversineMiles(41.85, -87.65, l.origin.latitude, l.origin.longitude) <= 100)
      .filter((l) => p !== "123loadboard" || l.fullLoad);
    expect(held.length).toBeGreaterThan(20);
    // Every load the board answered is read, or counted as unreadable (DAT's: see "DAT answers" below).
    expect(loads.length + skipped.length).toBe(Math.min(50, held.length));
    if (p !== "dat") expect(skipped).toEqual([]);
    // Nearest first.
    const miles = loads.map((l) => milesFrom(CHICAGO, l));
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    // The place and the contact come through as the board sent them.
    const sample = emu.controls[p].get(loads[0].externalId)!;
    expect(loads[0].pickup).toMatchObject({ city: sample.origin.city, state: sample.origin.state });
    expect(loads[0].contact.company).toBe(sample.company.name);
    // 123Loadboard lists some loads with a pickup date and no time.
    const { pickupAt } = datesOf(sample);
    expect([pickupAt, startOfDayUtc(pickupAt)]).toContain(loads[0].pickupDate);
    expect(loads.some((l) => l.contact.mcNumber !== null)).toBe(true);
  });

  test.each(NORTH_AMERICA)("%s: with an equipment type, only that equipment", async (p) => {
    const loads = await loadsOf(p, { ...CHICAGO, equipmentType: "refrigerated" });
    expect(loads.length).toBeGreaterThan(0);
    expect(loads.every((l) => l.equipmentType === "refrigerated")).toBe(true);
    expectSensible(CHICAGO, loads);
  });

  test.each(["dat", "123loadboard"] as const)(
    "%s: without city and state, coordinates and radius still search",
    async (p) => {
      const { loads, skipped } = await adapter(p).search({
        origin: { latitude: 41.85, longitude: -87.65 },
        radiusMiles: 50,
        limit: 10,
      });
      expect(loads.length + skipped.length).toBe(10);
      for (const l of loads) expect(milesFrom(CHICAGO, l)).toBeLessThanOrEqual(50);
    },
  );

  test("Truckstop: without a state there is no search (OriginState is required)", async () => {
    const a = adapter("truckstop");
    expect(
      a.outsideArea?.({ origin: { latitude: 41.85, longitude: -87.65 }, radiusMiles: 50, limit: 10 }),
    ).not.toBeNull();
  });

  test.each(NORTH_AMERICA)("%s: a destination narrows the lane", async (p) => {
    const q: TBoardSearch = {
      ...CHICAGO,
      radiusMiles: 150,
      destination: { latitude: 32.7767, longitude: -96.797, city: "Dallas", state: "TX" },
    };
    const loads = await loadsOf(p, q);
    expect(loads.length).toBeGreaterThan(0);
    for (const l of loads)
      expect(haversineMiles(32.7767, -96.797, l.delivery.latitude!, l.delivery.longitude!)).toBeLessThanOrEqual(150);
  });

  test.each(NORTH_AMERICA)("%s: the destination takes its own radius (a saved lane's)", async (p) => {
    const dallas = { latitude: 32.7767, longitude: -96.797, city: "Dallas", state: "TX" };
    const q: TBoardSearch = { ...CHICAGO, radiusMiles: 150, destination: dallas, limit: 500 };
    const near = await loadsOf(p, { ...q, destinationRadiusMiles: 10 });
    const wide = await loadsOf(p, { ...q, destinationRadiusMiles: 300 });
    expect(near.length).toBeGreaterThan(0);
    for (const l of near)
      expect(
        haversineMiles(dallas.latitude, dallas.longitude, l.delivery.latitude!, l.delivery.longitude!),
      ).toBeLessThanOrEqual(10);
    // Houston and San Antonio (200+ miles from Dallas) are in the wide lane only.
    const farthest = Math.max(
      ...wide.map((l) =>
        haversineMiles(dallas.latitude, dallas.longitude, l.delivery.latitude!, l.delivery.longitude!),
      ),
    );
    expect(farthest).toBeGreaterThan(150);
    expect(farthest).toBeLessThanOrEqual(300);
    for (const l of wide) expect(milesFrom(CHICAGO, l)).toBeLessThanOrEqual(150);
  });

  test("Truckstop: entities in the answer are decoded (Smith & Sons)", async () => {
    const loads = await loadsOf("truckstop", { ...CHICAGO, radiusMiles: 500, limit: 300 });
    expect(loads.some((l) => l.contact.company === "Smith & Sons Transport")).toBe(true);
  });
});

describe("the load feed", () => {
  test("search near Addis Ababa: corridor loads, in their currencies", async () => {
    const loads = await loadsOf("other", ADDIS);
    expect(loads.length).toBeGreaterThan(20);
    expectSensible(ADDIS, loads);
    expect(loads.every((l) => l.pickup.country === "ET")).toBe(true);
    const currencies = new Set(loads.flatMap((l) => (l.rateMinor === null ? [] : [l.currency])));
    expect([...currencies].every((c) => c === "ETB" || c === "USD")).toBe(true);
    expect(loads.some((l) => l.delivery.city === "Djibouti" && l.delivery.country === "DJ")).toBe(true);
    // The feed's own titles are kept.
    expect(loads[0].title).toMatch(/^[A-Z][a-z ]+: .+ → .+$/);
  });

  test("with an equipment type, and a destination narrowed here", async () => {
    const containers = await loadsOf("other", { ...ADDIS, equipmentType: "container" });
    expect(containers.length).toBeGreaterThan(0);
    expect(containers.every((l) => l.equipmentType === "container")).toBe(true);
    const toDjibouti = await loadsOf("other", {
      ...ADDIS,
      radiusMiles: 60,
      destination: { latitude: 11.5721, longitude: 43.1456 },
    });
    expect(toDjibouti.length).toBeGreaterThan(0);
    expect(toDjibouti.every((l) => l.delivery.city === "Djibouti")).toBe(true);
  });

  test("the destination's own radius narrows the feed's answer", async () => {
    const djibouti = { latitude: 11.5721, longitude: 43.1456 };
    const q = { ...ADDIS, radiusMiles: 60, destination: djibouti, limit: 500 };
    const near = await loadsOf("other", { ...q, destinationRadiusMiles: 5 });
    const wide = await loadsOf("other", { ...q, destinationRadiusMiles: 300 });
    expect(near.length).toBeGreaterThan(0);
    expect(near.every((l) => l.delivery.city === "Djibouti")).toBe(true);
    // Dire Dawa is about 140 miles from Djibouti: in the wide lane only.
    expect(wide.some((l) => l.delivery.city === "Dire Dawa")).toBe(true);
  });

  test("nothing near Chicago", async () => {
    expect(await loadsOf("other", CHICAGO)).toEqual([]);
  });

  test("a malformed load is skipped; the others come through", async () => {
    const good = (await loadsOf("other", { ...ADDIS, limit: 3 })).length;
    emu.controls.other.extraRaw = [
      { id: "BROKEN-1", pickup: { city: "Addis Ababa", country: "ET", latitude: "nine", longitude: 38.7 } },
    ];
    const loads = await loadsOf("other", { ...ADDIS, limit: 3 });
    expect(loads.length).toBe(good);
    expect(loads.some((l) => l.externalId === "BROKEN-1")).toBe(false);
  });

  test("loads change only through the board: a new rate shows, a removed load is gone", async () => {
    const a = adapter("other");
    const [first, second] = (await a.search(ADDIS)).loads;
    expect(emu.controls.other.setRate(first.externalId, 31_500)).toBe(true);
    expect(emu.controls.other.remove(second.externalId)).toBe(true);
    const again = (await a.search(ADDIS)).loads;
    const updated = again.find((l) => l.externalId === first.externalId)!;
    expect(updated.rateMinor).toBe(3_150_000);
    expect(updated.postedAt).toBeGreaterThan(first.postedAt!);
    expect(again.some((l) => l.externalId === second.externalId)).toBe(false);
    // Without changes, the same answer twice.
    expect((await a.search(ADDIS)).loads).toEqual(again);
  });
});

describe("when the board fails", () => {
  test.each(ALL)("%s: an outage is an error naming the board", async (p) => {
    emu.controls[p].outage = true;
    const err = await caught(adapter(p).search(p === "other" ? ADDIS : CHICAGO));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toStartWith(`${labelOf(p)} failed: `);
    expect(err.message).toContain("503");
  });

  test.each(ALL)("%s: the board's rate limit is passed on with its Retry-After", async (p) => {
    emu.controls[p].rateLimit = true;
    const err = await caught(adapter(p).search(CHICAGO));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.retryAfterSeconds).toBe(30);
    expect(err.message).toBe(`${labelOf(p)} is limiting requests; try again in 30 s`);
  });

  test.each(ALL)("%s: a board slower than timeoutMs is a timeout", async (p) => {
    emu.controls[p].delayMs = 700;
    const err = await caught(adapter(p, { timeoutMs: 200 }).search(CHICAGO));
    expect(err.code).toBe("GATEWAY_TIMEOUT");
    expect(err.message).toBe(`${labelOf(p)} did not answer within 0.2 s`);
  });

  test.each(ALL)("%s: an unreachable address names the board", async (p) => {
    const err = await caught(adapter(p, { baseUrl: "http://127.0.0.1:9" }).search(CHICAGO));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toStartWith(`${labelOf(p)} could not be reached: `);
  });

  test.each(ALL)("%s: rateLimitPerHour 2: the third call is refused before it reaches the board", async (p) => {
    const a = adapter(p, { rateLimitPerHour: 2 });
    await a.search(CHICAGO);
    await a.search(CHICAGO);
    const err = await caught(a.search(CHICAGO));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.message).toBe(`${labelOf(p)}: the limit of 2 calls per hour is reached`);
    expect(err.retryAfterSeconds).toBeGreaterThan(3500);
    expect(emu.controls[p].searchCalls).toBe(2);
    // Another configuration (another adapter) has its own budget.
    await adapter(p, { rateLimitPerHour: 2 }).search(CHICAGO);
    expect(emu.controls[p].searchCalls).toBe(3);
  });
});

describe("tokens", () => {
  test("DAT: one organization and one user token serve many searches", async () => {
    const a = adapter("dat");
    await Promise.all([a.search(CHICAGO), a.search(CHICAGO)]);
    await a.search(CHICAGO);
    expect(emu.controls.dat.tokenCalls).toBe(2);
    expect(emu.controls.dat.searchCalls).toBe(3);
  });

  test("DAT: a token DAT stops honouring is replaced once, and the search goes through", async () => {
    const a = adapter("dat");
    await a.search(CHICAGO);
    emu.controls.dat.expireTokens();
    expect((await a.search(CHICAGO)).loads.length).toBeGreaterThan(0);
    expect(emu.controls.dat.tokenCalls).toBe(4);
    expect(emu.controls.dat.searchCalls).toBe(3);
  });

  test("DAT: updates on the board show in the next search", async () => {
    const a = adapter("dat");
    const [first] = (await a.search(CHICAGO)).loads;
    emu.controls.dat.setRate(first.externalId, null);
    const again = (await a.search(CHICAGO)).loads;
    expect(again.find((l) => l.externalId === first.externalId)?.rateMinor).toBeNull();
    emu.controls.dat.remove(first.externalId);
    expect((await a.search(CHICAGO)).loads.some((l) => l.externalId === first.externalId)).toBe(false);
  });
});

describe("Truckstop SOAP", () => {
  test("credentials and criteria with <&>\"' travel escaped and arrive intact", async () => {
    const creds = { integrationId: "sandbox", username: `a<&>"'b`, password: "<&>" };
    const err = await caught(adapter("truckstop", { credentials: creds }).test());
    // The board read the envelope and refused the credentials; it did not choke on it.
    expect(err.message).toBe(
      `Truckstop refused the credentials of '${NAME}': Invalid Integration Id, UserName or Password`,
    );
    expect(emu.controls.truckstop.lastRequest).toMatchObject({ username: `a<&>"'b`, password: "<&>" });
    const loads = await loadsOf("truckstop", {
      ...CHICAGO,
      origin: { ...CHICAGO.origin, city: "Chicago <&> Heights" },
    });
    expect(emu.controls.truckstop.lastRequest?.criteria.OriginCity).toBe("Chicago <&> Heights");
    expect(loads.length).toBeGreaterThan(0);
  });

  test("the envelope: namespaces, credentials first, criteria in alphabetical order", () => {
    const xml = truckstopEnvelope({ integrationId: "42", username: "u", password: "p" }, CHICAGO);
    const root = parseXml(xml);
    expect(root.name).toBe("Envelope");
    const request = xmlDescendants(root, "searchRequest")[0];
    expect(request.children.map((c) => c.name)).toEqual(["IntegrationId", "Password", "UserName", "Criteria"]);
    const criteria = request.children[3].children.map((c) => c.name);
    expect(criteria).toEqual([...criteria].sort());
    expect(criteria).toHaveLength(18);
    expect(truckstopCriteria(CHICAGO)).toContainEqual(["OriginState", "IL"]);
    expect(truckstopCriteria(CHICAGO)).toContainEqual(["OriginCountry", "USA"]);
    expect(truckstopCriteria({ ...CHICAGO, equipmentType: "tanker" })).toContainEqual(["EquipmentType", "TNK"]);
  });

  test("escapeXml and parseXml agree, entities and CDATA included", () => {
    const tricky = `Tom & Jerry's <"freight"> \u0001`;
    const root = parseXml(`<a x="${escapeXml(tricky)}"><b>${escapeXml(tricky)}</b><c><![CDATA[<raw & text>]]></c></a>`);
    expect(root.attrs.x).toBe(`Tom & Jerry's <"freight"> `);
    expect(root.children[0].text).toBe(`Tom & Jerry's <"freight"> `);
    expect(root.children[1].text).toBe("<raw & text>");
    expect(parseXml("<a>&#233;&#xE9;&amp;lt;</a>").text).toBe("éé&lt;");
    expect(() => parseXml("<a><b></a>")).toThrow();
    expect(() => parseXml("<a>x < y</a>")).toThrow();
    expect(() => parseXml("not xml")).toThrow();
  });

  test("answers: results with nil members, Errors, and SOAP faults", () => {
    const ok = parseTruckstopAnswer(
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><R xmlns:a="x" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Errors/><a:DetailResults><a:MultipleLoadDetailResult>` +
        '<a:DeliveryDate i:nil="true"/><a:DestinationCity>Dallas</a:DestinationCity><a:DestinationState>TX</a:DestinationState>' +
        '<a:Entered>2025-06-01T10:00:00</a:Entered><a:EquipmentTypes><b:Code xmlns:b="y">R</b:Code></a:EquipmentTypes><a:ID>123</a:ID>' +
        "<a:Mileage>925</a:Mileage><a:OriginCity>Toronto</a:OriginCity><a:OriginCountry>CAN</a:OriginCountry><a:OriginState>ON</a:OriginState>" +
        "<a:PaymentAmount>0</a:PaymentAmount><a:PickupDate>6/3/2025</a:PickupDate><a:TruckCompanyName>A &amp; B</a:TruckCompanyName><a:Weight></a:Weight>" +
        "</a:MultipleLoadDetailResult><a:MultipleLoadDetailResult><a:ID>no-places</a:ID></a:MultipleLoadDetailResult></a:DetailResults></R></s:Body></s:Envelope>",
    );
    expect(ok.fault).toBeNull();
    expect(ok.errors).toEqual([]);
    expect(ok.loads).toHaveLength(1);
    expect(ok.loads[0]).toMatchObject({
      externalId: "123",
      pickup: { city: "Toronto", state: "ON", country: "CA", latitude: null },
      delivery: { city: "Dallas", country: "US" },
      pickupDate: Date.UTC(2025, 5, 3),
      deliveryDate: null,
      equipmentType: "refrigerated",
      rateMinor: null,
      weightLbs: null,
      tripMiles: 925,
      contact: { company: "A & B" },
      postedAt: Date.UTC(2025, 5, 1, 10),
    });
    const refused = parseTruckstopAnswer(
      '<s:Envelope xmlns:s="e"><s:Body><R><Errors xmlns="w"><Error><ErrorMessage>Invalid Integration Id, UserName or Password</ErrorMessage></Error></Errors></R></s:Body></s:Envelope>',
    );
    expect(refused.errors).toEqual(["Invalid Integration Id, UserName or Password"]);
    const fault = parseTruckstopAnswer(
      '<s:Envelope xmlns:s="e"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring xml:lang="en-US">Bad things</faultstring></s:Fault></s:Body></s:Envelope>',
    );
    expect(fault.fault).toBe("Bad things");
  });

  test("equipment codes both ways", () => {
    expect(truckstopEquipmentType("V")).toBe("dry_van");
    expect(truckstopEquipmentType("TNK")).toBe("tanker");
    expect(truckstopEquipmentType("CONT")).toBe("container");
    expect(truckstopEquipmentType("RGN")).toBe("lowboy");
    expect(truckstopEquipmentType("??")).toBe("dry_van");
  });
});

describe("wire pieces", () => {
  test("DAT: the search body, equipment codes, identity hosts, a match", () => {
    const body = datSearchBody({ ...CHICAGO, equipmentType: "step_deck", limit: 5 });
    expect(body).toEqual({
      criteria: {
        lane: { origin: { latitude: 41.85, longitude: -87.65, city: "Chicago", stateProv: "IL", radiusMiles: 100 } },
        equipmentClasses: ["SD"],
        fullPartial: "BOTH",
      },
      limit: 5,
    });
    expect(datSearchBody(CHICAGO).criteria.equipmentClasses).toEqual(["V", "R", "F", "SD", "LB", "T", "C"]);
    expect(datEquipmentType("VR")).toBe("dry_van");
    expect(datEquipmentType("FA")).toBe("flatbed");
    expect(datEquipmentType("LB")).toBe("lowboy");
    expect(datIdentityBase("https://freight.api.prod.dat.com")).toBe("https://identity.api.dat.com");
    expect(datIdentityBase("https://freight.api.staging.dat.com")).toBe("https://identity.api.staging.dat.com");
    expect(datIdentityBase("http://127.0.0.1:4111")).toBe("http://127.0.0.1:4111");
    const read = mapDatMatch({
      resultId: "R1",
      posting: {
        id: "P1",
        lane: { origin: { city: "Toronto", stateProv: "ON" }, destination: { city: "Laredo", stateProv: "TX" } },
        exposure: { earliestAvailabilityWhen: "2025-06-03T12:00:00.000Z" },
        freight: { comments: [{ comment: "Tarps" }, { comment: "Team" }], commodity: { details: "Steel" } },
        posterInfo: { company: { name: "Acme" }, contactMethods: [{ type: "PRIMARY_PHONE", value: "555-0100" }] },
        posterDotIds: { brokerMcNumber: 123456 },
      },
    });
    expect(read).toMatchObject({
      load: {
        externalId: "P1",
        title: "Toronto, ON → Laredo, TX",
        description: "Steel · Tarps · Team",
        pickup: { country: "CA", latitude: null },
        rateMinor: null,
        contact: { mcNumber: "123456", company: "Acme", phone: "555-0100", email: null },
      },
    });
    // v3's matchId still names a match without a posting id.
    expect(
      mapDatMatch({
        matchId: "M2",
        posting: {
          lane: { origin: { city: "Gary", stateProv: "IN" }, destination: { city: "Dallas", stateProv: "TX" } },
          exposure: { earliestAvailabilityWhen: "2025-06-03" },
        },
      }),
    ).toMatchObject({ load: { externalId: "M2" } });
    expect(mapDatMatch({ resultId: "R3", posting: {} })).toEqual({
      skip: { id: "R3", field: "posting.lane.origin.city", reason: "missing" },
    });
    expect(mapDatMatch(7)).toEqual({ skip: { id: null, field: "", reason: "not an object" } });
  });

  test("123Loadboard: the search body and equipment names", () => {
    const body = lb123SearchBody({ ...CHICAGO, equipmentType: "flatbed" });
    expect(body).toMatchObject({
      metadata: { limit: 50, sortBy: { field: "Origin", direction: "Ascending" }, fields: "all", type: "Regular" },
      origin: { city: "Chicago", states: ["IL"], latitude: 41.85, longitude: -87.65, radius: 100, type: "City" },
      destination: { type: "Anywhere" },
      equipmentTypes: ["Flatbed"],
      loadSize: "Tl",
      includeLoadsWithoutWeight: true,
    });
    expect(lb123EquipmentType("StepDeck")).toBe("step_deck");
    expect(lb123EquipmentType("Van or Reefer")).toBe("dry_van");
    expect(lb123EquipmentType("Double Drop")).toBe("lowboy");
  });

  test("feed: the query, a malformed load named by its field, a wrong top level", () => {
    expect(feedQuery({ ...ADDIS, equipmentType: "tanker", limit: 5 }).toString()).toBe(
      "lat=9.0108&lng=38.7613&radiusMiles=100&equipmentType=tanker&limit=5",
    );
    const good = {
      id: "L1",
      pickup: { city: "Modjo", state: "OR", country: "et", latitude: 8.587, longitude: 39.121 },
      delivery: { city: "Djibouti", country: "DJ" },
      pickupDate: "2025-06-03T06:00:00Z",
      equipmentType: "container",
      rate: { amount: 2450.5, currency: "usd" },
    };
    const { loads, skipped } = parseFeed("Feed", {
      version: FEED_VERSION,
      loads: [good, { ...good, id: "L2", equipmentType: "truck" }, { ...good, id: "L3", pickupDate: "soon" }, 7],
    });
    expect(loads).toHaveLength(1);
    expect(loads[0]).toMatchObject({
      externalId: "L1",
      title: "Modjo, OR → Djibouti, DJ",
      pickup: { country: "ET" },
      delivery: { latitude: null, state: null },
      rateMinor: 245_050,
      currency: "USD",
      contact: { company: null, mcNumber: null },
    });
    expect(skipped.map((s) => [s.id, s.field])).toEqual([
      ["L2", "loads.1.equipmentType"],
      ["L3", "loads.2.pickupDate"],
      [null, "loads.3"],
    ]);
    const err = (() => {
      try {
        parseFeed("Feed", { version: 2, loads: [] });
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err?.code).toBe("BAD_GATEWAY");
    expect(err?.message).toBe("Feed sent an answer we could not read (at version)");
  });
});

describe("the kit", () => {
  test("HourlyBudget: a sliding hour", () => {
    let now = 1_000_000;
    const b = new HourlyBudget(2, "Board", () => now);
    b.take();
    now += 1000;
    b.take();
    expect(b.remaining()).toBe(0);
    let err: AppError | null = null;
    try {
      b.take();
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.retryAfterSeconds).toBe(3599);
    now += 3_599_000;
    b.take();
    expect(b.remaining()).toBe(0);
    expect(new HourlyBudget(0).remaining()).toBe(Number.POSITIVE_INFINITY);
  });

  test("dates, countries, reasons", () => {
    expect(parseBoardDate("2025-06-03T08:00:00")).toBe(Date.UTC(2025, 5, 3, 8));
    expect(parseBoardDate("2025-06-03T08:00:00-05:00")).toBe(Date.UTC(2025, 5, 3, 13));
    expect(parseBoardDate("2025-06-03")).toBe(Date.UTC(2025, 5, 3));
    expect(parseBoardDate("6/3/25 14:30")).toBe(Date.UTC(2025, 5, 3, 14, 30));
    expect(parseBoardDate("someday")).toBeNull();
    expect(northAmericanCountry("USA", "IL")).toBe("US");
    expect(northAmericanCountry(null, "QC")).toBe("CA");
    expect(northAmericanCountry(undefined, "NL")).toBe("CA");
    expect(northAmericanCountry("MX", "NL")).toBe("MX");
    expect(jsonReason('{"error":"invalid_client"}')).toBe("invalid_client");
    expect(jsonReason('{"error":"invalid_grant","error_description":"Bad code"}')).toBe("Bad code");
    expect(jsonReason('{"errors":[{"message":"No"}]}')).toBe("No");
    expect(jsonReason("<html><body>Bad gateway</body></html>")).toBeUndefined();
    expect(jsonReason("<HTML><HEAD><TITLE>Service Unavailable</TITLE></HEAD><BODY><hr></BODY></HTML>")).toBe(
      "Service Unavailable",
    );
  });

  test("registry: production addresses, sandboxes, one adapter per provider", () => {
    for (const url of Object.values(PRODUCTION_BOARD_URLS)) expect(isSandboxBoardUrl(url)).toBe(false);
    for (const url of [
      "http://127.0.0.1:4111",
      "http://localhost:4114/feed",
      "http://[::1]:8080",
      "https://testws.truckstop.com",
      "https://api-int.truckstop.com",
      "https://api.dev.123loadboard.com",
      "https://freight.api.staging.dat.com",
      "https://identity.api.nprod.dat.com",
    ])
      expect(isSandboxBoardUrl(url)).toBe(true);
    expect(isSandboxBoardUrl("https://feed.example.com")).toBe(false);
    expect(isSandboxBoardUrl("not a url")).toBe(false);
    for (const p of ALL) {
      const a = createBoardAdapter({ ...settings(p), baseUrl: "https://loads.example.com/" });
      expect(a.provider).toBe(p);
      expect(a.sandbox).toBe(false);
    }
  });
});

describe("emulator datasets", () => {
  test("the same loads every time, pickups always upcoming", async () => {
    const { createDatEmulator } = await import("../../../../emulators/boards/dat");
    const { createFeedEmulator } = await import("../../../../emulators/boards/feed");
    expect(createDatEmulator().control.loads()).toEqual(emu.controls.dat.loads());
    expect(createFeedEmulator().control.loads()).toEqual(emu.controls.other.loads());
    const now = Date.now();
    for (const c of Object.values(emu.controls)) {
      const loads = c.loads();
      expect(loads.length).toBeGreaterThanOrEqual(300);
      expect(loads.every((l) => datesOf(l, now).pickupAt > now)).toBe(true);
    }
    const feedCities = new Set(emu.controls.other.loads().map((l) => l.origin.city));
    for (const city of ["Addis Ababa", "Modjo", "Djibouti", "Nairobi", "Rotterdam"]) expect(feedCities).toContain(city);
  });
});

describe("DAT answers in the current search's shape", () => {
  const WIDE: TBoardSearch = { ...CHICAGO, radiusMiles: 400, limit: 500 };

  test("every match is read but those lacking what a load needs, which are counted with the field at fault", async () => {
    const { loads, skipped } = await adapter("dat").search(WIDE);
    const held = emu.controls.dat
      .loads()
      .filter((l) => haversineMiles(41.85, -87.65, l.origin.latitude, l.origin.longitude) <= 400);
    const unreadable = held.filter((l) => isUnreadableDatLoad(l.id)).map((l) => l.id);
    expect(unreadable.length).toBeGreaterThan(0);
    expect(loads.map((l) => l.externalId).sort()).toEqual(
      held
        .map((l) => l.id)
        .filter((id) => !unreadable.includes(id))
        .sort(),
    );
    expect(skipped.map((k) => k.id).sort()).toEqual(unreadable.sort());
    for (const k of skipped)
      expect(k.field).toMatch(/^matches\.\d+\.posting\.(exposure\.earliestAvailabilityWhen|lane\.origin\.city)$/);
    expectSensible(WIDE, loads);
  });

  test("optional fields left out leave the load as it is; comments come from the list of {comment}", async () => {
    const { loads } = await adapter("dat").search(WIDE);
    const byId = new Map(loads.map((l) => [l.externalId, l]));
    const held = emu.controls.dat.loads().filter((l) => byId.has(l.id));
    const withComments = held.find((l) => l.comments && !datGaps(l.id).noComments)!;
    expect(byId.get(withComments.id)!.description).toBe(withComments.comments);
    const noComments = held.find((l) => datGaps(l.id).noComments)!;
    expect(byId.get(noComments.id)).toMatchObject({ description: null, weightLbs: null });
    const noEmail = held.find((l) => datGaps(l.id).noEmail)!;
    expect(byId.get(noEmail.id)!.contact).toMatchObject({ email: null, company: noEmail.company.name });
    const noMiles = held.find((l) => datGaps(l.id).noMiles)!;
    expect(byId.get(noMiles.id)!.tripMiles).toBeNull();
    const rated = held.find((l) => l.rate !== null)!;
    expect(byId.get(rated.id)!.rateMinor).toBe(rated.rate! * 100);
  });

  test("one odd match costs nothing else: fields in another form are read as missing, only a broken one is left out", async () => {
    const lane = { origin: { city: "Gary", stateProv: "IN" }, destination: { city: "Dallas", stateProv: "TX" } };
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    emu.controls.dat.extraRaw = [
      {
        resultId: "odd",
        posting: {
          id: "DAT-ODD",
          lane,
          exposure: { earliestAvailabilityWhen: tomorrow, audience: "everyone" },
          freight: { comments: "Call first", weightPounds: "n/a", equipmentType: 7, somethingNew: { x: 1 } },
          posterInfo: { companyName: "Odd Freight", contact: "(312) 555-0199" },
          tripLength: "far",
        },
      },
      { resultId: "broken", posting: { id: "DAT-BROKEN", lane, exposure: { earliestAvailabilityWhen: "soon" } } },
    ];
    const { loads, skipped } = await adapter("dat").search(CHICAGO);
    const odd = loads.find((l) => l.externalId === "DAT-ODD");
    expect(odd).toMatchObject({
      description: "Call first",
      weightLbs: null,
      tripMiles: null,
      equipmentType: "dry_van",
      contact: { company: "Odd Freight", phone: null },
    });
    expect(skipped.find((k) => k.id === "DAT-BROKEN")).toMatchObject({
      field: expect.stringMatching(/^matches\.\d+\.posting\.exposure\.earliestAvailabilityWhen$/),
      reason: "not a date",
    });
    // The board's own matches are all there besides.
    expect(loads.length + skipped.length).toBe(50 + 2);
  });

  test("an answer without matches is unreadable as a whole, naming the board and the configuration", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        const path = new URL(req.url).pathname;
        if (path.startsWith("/access/")) return Response.json({ accessToken: "t", expiresWhen: null });
        return Response.json({ results: [] });
      },
    });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const err = await caught(
        adapter("dat", { baseUrl: url, sandboxOrigins: [...SANDBOX_ORIGINS, url] }).search(CHICAGO),
      );
      expect(err.message).toBe(`DAT '${NAME}' sent an answer we could not read (at matches)`);
    } finally {
      server.stop(true);
    }
  });
});

describe("Truckstop searches North America only", () => {
  test("an origin without a US, Canadian or Mexican state is not searched: the adapter says why and sends nothing", async () => {
    const a = adapter("truckstop");
    expect(a.outsideArea?.(ADDIS)).toMatchObject({ id: "error.board.northAmericaOnly" });
    const err = await caught(a.search(ADDIS));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      "Truckstop searches North America only: the search must start in a US state, a Canadian province or a Mexican state",
    );
    expect(emu.controls.truckstop.searchCalls).toBe(0);
    // A state that is no North American one (an Ethiopian region code) is the same.
    expect(a.outsideArea?.({ ...ADDIS, origin: { ...ADDIS.origin, state: "AA" } })).not.toBeNull();
    expect(a.outsideArea?.(CHICAGO)).toBeNull();
  });

  test("the board refuses a search without OriginState with a SOAP fault", async () => {
    const envelope = truckstopEnvelope(BOARD_SANDBOX_CREDENTIALS.truckstop, {
      origin: { latitude: 9.0108, longitude: 38.7613, city: "Addis Ababa", country: "ET" },
      radiusMiles: 100,
      limit: 10,
    });
    expect(envelope).toContain("<web1:OriginState></web1:OriginState>");
    const res = await fetch(`${emu.urls.truckstop}/v13/Searching/LoadSearch.svc`, {
      method: "POST",
      headers: {
        "Content-Type": "text/xml; charset=utf-8",
        SOAPAction: '"http://webservices.truckstop.com/v12/ILoadSearch/GetMultipleLoadDetailResults"',
      },
      body: envelope,
    });
    expect(res.status).toBe(500);
    const answer = parseTruckstopAnswer(await res.text());
    expect(answer.fault).toBe("OriginState is required: give up to 15 states or provinces.");
    // A province given as a number (as GeoNames codes them) is refused too.
    const numbered = envelope.replace(
      "<web1:OriginState></web1:OriginState>",
      "<web1:OriginState>08</web1:OriginState>",
    );
    const refused = await fetch(`${emu.urls.truckstop}/v13/Searching/LoadSearch.svc`, {
      method: "POST",
      headers: {
        "Content-Type": "text/xml; charset=utf-8",
        SOAPAction: '"http://webservices.truckstop.com/v12/ILoadSearch/GetMultipleLoadDetailResults"',
      },
      body: numbered,
    });
    expect(parseTruckstopAnswer(await refused.text()).fault).toBe(
      "OriginState '08' is not a state or province Truckstop knows.",
    );
  });

  test("Canadian and Mexican origins are searched with their province or state", async () => {
    const toronto: TBoardSearch = {
      origin: { latitude: 43.6532, longitude: -79.3832, city: "Toronto", state: "ON", country: "CA" },
      radiusMiles: 100,
      limit: 20,
    };
    const loads = await loadsOf("truckstop", toronto);
    expect(loads.length).toBeGreaterThan(0);
    expect(emu.controls.truckstop.lastRequest?.criteria).toMatchObject({ OriginState: "ON", OriginCountry: "CAN" });
    await loadsOf("truckstop", {
      origin: { latitude: 25.6866, longitude: -100.3161, city: "Monterrey", state: "NL", country: "MX" },
      radiusMiles: 100,
      limit: 20,
    });
    expect(emu.controls.truckstop.lastRequest?.criteria).toMatchObject({ OriginState: "NL", OriginCountry: "MEX" });
    expect(northAmericanState("CA", "ON")).toEqual({ country: "CA", state: "ON" });
    expect(northAmericanState("CA", "08")).toBeNull();
    expect(northAmericanState(null, "TX")).toEqual({ country: "US", state: "TX" });
    expect(northAmericanState("ET", "AA")).toBeNull();
  });
});

describe("123Loadboard: a user's authorization, not client credentials", () => {
  const api = (path: string, init: RequestInit) =>
    fetch(`${emu.urls["123loadboard"]}${path}`, {
      ...init,
      headers: { ...LB123_HEADERS, ...(init.headers as Record<string, string>) },
    });
  const basic = `Basic ${btoa(`${LB123_SANDBOX.clientId}:${LB123_SANDBOX.clientSecret}`)}`;
  const form = { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic };

  test("a client-credentials token may not search loads: 403 insufficient_scope", async () => {
    const token = await api("/token", {
      method: "POST",
      headers: form,
      body: "grant_type=client_credentials&scope=loadsearching",
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const search = await api("/loads/search", {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify(lb123SearchBody(CHICAGO)),
    });
    expect(search.status).toBe(403);
    expect(await search.json()).toMatchObject({ error: "insufficient_scope" });
  });

  test("the user's token searches; it is renewed with the refresh token, which rotates", async () => {
    const a = adapter("123loadboard");
    const first = lb123.tokens()!;
    expect(first.refreshToken).toBeTruthy();
    expect((await a.search(CHICAGO)).loads.length).toBeGreaterThan(0);
    await a.search(CHICAGO);
    expect(emu.controls["123loadboard"].issued.refreshes).toBe(0);
    // 123Loadboard stops honouring the access token: renewed once, and the search goes through.
    emu.controls["123loadboard"].expireTokens();
    expect((await a.search(CHICAGO)).loads.length).toBeGreaterThan(0);
    expect(emu.controls["123loadboard"].issued.refreshes).toBe(1);
    const second = lb123.tokens()!;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    // The old refresh token is spent.
    const reuse = await api("/token", {
      method: "POST",
      headers: form,
      body: `grant_type=refresh_token&refresh_token=${first.refreshToken}`,
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("an access token past its expiry is renewed before the search, not after a refusal", async () => {
    lb123 = memoryAuth({ ...lb123.tokens()!, expiresAt: Date.now() - 1000 });
    await adapter("123loadboard").search(CHICAGO);
    expect(emu.controls["123loadboard"].issued.refreshes).toBe(1);
    expect(emu.controls["123loadboard"].searchCalls).toBe(1);
    expect(lb123.tokens()!.expiresAt).toBeGreaterThan(Date.now() + 3000_000);
  });

  test("a renewal another process made first is used, not refused", async () => {
    const a = adapter("123loadboard");
    const b = adapter("123loadboard");
    await a.search(CHICAGO);
    await b.search(CHICAGO);
    emu.controls["123loadboard"].expireTokens();
    await a.search(CHICAGO);
    // b still holds the old access token: refused, it finds a's renewal in the store and uses it.
    expect((await b.search(CHICAGO)).loads.length).toBeGreaterThan(0);
    expect(emu.controls["123loadboard"].issued.refreshes).toBe(1);
    expect(lb123.refusal()).toBeNull();
  });

  test("a refresh 123Loadboard refuses asks the user to connect again, naming the configuration", async () => {
    emu.controls["123loadboard"].revokeRefreshTokens();
    emu.controls["123loadboard"].expireTokens();
    const err = await caught(adapter("123loadboard").search(CHICAGO));
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toBe(
      `123Loadboard '${NAME}' no longer accepts the connection (The refresh token is invalid, expired or revoked): use Reconnect 123Loadboard on the Marketplaces page`,
    );
    expect(lb123.refusal()).toBe("The refresh token is invalid, expired or revoked");
  });

  test("without a connection nothing is sent, and the error says to connect", async () => {
    const err = await caught(adapter("123loadboard", { userAuth: memoryAuth(null) }).search(CHICAGO));
    expect(err.message).toBe(
      `123Loadboard '${NAME}' is not connected: use Connect 123Loadboard on the Marketplaces page`,
    );
    expect(emu.controls["123loadboard"].searchCalls).toBe(0);
  });

  test("test() makes a real search with the stored token", async () => {
    const a = adapter("123loadboard");
    await a.search(CHICAGO);
    await a.test();
    expect(emu.controls["123loadboard"].searchCalls).toBe(2);
  });

  test("the authorize page: Deny answers access_denied; a code is single-use and bound to its redirect URI and verifier", async () => {
    const pkce = pkcePair();
    const url = lb123AuthorizeUrl(emu.urls["123loadboard"], {
      clientId: LB123_SANDBOX.clientId,
      redirectUri: REDIRECT,
      state: "s2",
      codeChallenge: pkce.challenge,
    });
    const page = await (await fetch(url)).text();
    expect(page).toContain("Approve");
    expect(page).toContain("Deny");
    const denied = await answerSandboxAuthorize(url, "deny");
    expect(`${denied.origin}${denied.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: "access_denied", state: "s2" });

    const exchangeWith = (code: string, over: Record<string, string> = {}) =>
      api("/token", {
        method: "POST",
        headers: form,
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          code_verifier: pkce.verifier,
          ...over,
        }),
      });
    const code = async () => (await answerSandboxAuthorize(url)).searchParams.get("code")!;
    expect((await exchangeWith(await code(), { code_verifier: pkcePair().verifier })).status).toBe(400);
    expect((await exchangeWith(await code(), { redirect_uri: "https://elsewhere.example/cb" })).status).toBe(400);
    const good = await code();
    const ok = await exchangeWith(good);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      scope: "loadsearching offline_access",
    });
    const again = await exchangeWith(good);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
  });
});
