// Truckstop: the SOAP load search across the public board (LoadSearch.svc, GetMultipleLoadDetailResults, which returns
// results and their details in one call). Credentials (IntegrationId, UserName, Password) travel inside the SOAP body;
// a refusal comes back as a 200 answer with Errors/Error/ErrorMessage (Truckstop's SOAP reference,
// developer.truckstop.com).
//
// WCF reads data-contract members in order: the base request's members (IntegrationId, Password, UserName) come first,
// then Criteria, whose members are sent in alphabetical order. No XML library is installed: the envelope is a template
// with every value escaped, and answers are read with the small parser below.
import type { TEquipmentType } from "../../../shared/constants";
import { AppError, type TMessage } from "../../errors";
import {
  credentialsRefused,
  exchange,
  HourlyBudget,
  retryAfterSeconds,
  serviceFailed,
  serviceLimiting,
  serviceUnreadable,
  trimBase,
} from "../http/kit";
import {
  boardNumber,
  failOnStatus,
  isSandboxBoardUrl,
  laneTitle,
  logSkipped,
  northAmericanCountry,
  northAmericanState,
  parseBoardDate,
  rateMinorOf,
  text,
} from "./http";
import {
  BOARD_NAMES,
  type TBoardLoad,
  type TBoardPlace,
  type TBoardResult,
  type TBoardSearch,
  type TBoardSettings,
  type TBoardSkip,
  type TLoadBoardAdapter,
} from "./types";

export const TRUCKSTOP_PATH = "/v13/Searching/LoadSearch.svc";
export const TRUCKSTOP_SOAP_ACTION = "http://webservices.truckstop.com/v12/ILoadSearch/GetMultipleLoadDetailResults";
export const TRUCKSTOP_NS = {
  soapenv: "http://schemas.xmlsoap.org/soap/envelope/",
  v12: "http://webservices.truckstop.com/v12",
  web: "http://schemas.datacontract.org/2004/07/WebServices",
  web1: "http://schemas.datacontract.org/2004/07/WebServices.Searching",
  arr: "http://schemas.microsoft.com/2003/10/Serialization/Arrays",
} as const;

// XML --------------------------------------------------------------------------------------------------------------

/** Escapes text for an element or an attribute, and drops the control characters XML 1.0 cannot carry. */
export const escapeXml = (v: string) =>
  v
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing exactly those characters is the point.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five named entities and numeric character references. */
export const decodeXml = (v: string) =>
  v.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e] ?? whole;
  });

export type TXmlElement = {
  /** The local name (without its prefix). */
  name: string;
  prefix: string | null;
  attrs: Record<string, string>;
  children: TXmlElement[];
  /** The element's own text (CDATA included), decoded; text of children is not part of it. */
  text: string;
};

const START_TAG = /<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

const splitName = (qname: string) => {
  const i = qname.indexOf(":");
  return i < 0 ? { prefix: null, name: qname } : { prefix: qname.slice(0, i), name: qname.slice(i + 1) };
};

/**
 * A small, strict XML reader for SOAP answers: elements, attributes, text, CDATA; skips the declaration, comments,
 * processing instructions and a DOCTYPE. Throws on malformed input (unclosed or mismatched tags, a stray '<').
 */
export const parseXml = (xml: string): TXmlElement => {
  const stack: TXmlElement[] = [];
  let root: TXmlElement | null = null;
  let i = 0;
  const skipPast = (end: string) => {
    const j = xml.indexOf(end, i);
    if (j < 0) throw new Error(`unterminated ${end}`);
    i = j + end.length;
  };
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const chunk = xml.slice(i, lt < 0 ? xml.length : lt);
    if (chunk.trim()) {
      const top = stack.at(-1);
      if (!top) throw new Error("text outside the root element");
      top.text += decodeXml(chunk);
    }
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith("<?", i)) skipPast("?>");
    else if (xml.startsWith("<!--", i)) skipPast("-->");
    else if (xml.startsWith("<![CDATA[", i)) {
      const end = xml.indexOf("]]>", i);
      if (end < 0) throw new Error("unterminated CDATA");
      const top = stack.at(-1);
      if (!top) throw new Error("CDATA outside the root element");
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith("<!", i)) skipPast(">");
    else if (xml.startsWith("</", i)) {
      const end = xml.indexOf(">", i);
      if (end < 0) throw new Error("unterminated end tag");
      const qname = xml.slice(i + 2, end).trim();
      const open = stack.pop();
      const { prefix, name } = splitName(qname);
      if (!open || open.name !== name || open.prefix !== prefix) throw new Error(`unexpected </${qname}>`);
      i = end + 1;
    } else {
      START_TAG.lastIndex = i;
      const m = START_TAG.exec(xml);
      if (!m) throw new Error(`malformed tag at ${i}`);
      const attrs: Record<string, string> = {};
      for (const a of m[2].matchAll(ATTR)) attrs[a[1]] = decodeXml(a[2] ?? a[3] ?? "");
      const el: TXmlElement = { ...splitName(m[1]), attrs, children: [], text: "" };
      const parent = stack.at(-1);
      if (parent) parent.children.push(el);
      else if (root) throw new Error("more than one root element");
      else root = el;
      if (m[3] !== "/") stack.push(el);
      i = START_TAG.lastIndex;
    }
  }
  if (stack.length) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
  if (!root) throw new Error("no root element");
  return root;
};

/** Every descendant (depth first) with this local name. */
export const xmlDescendants = (el: TXmlElement, name: string): TXmlElement[] =>
  el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...xmlDescendants(c, name)]);

/** The first child with this local name. */
export const xmlChild = (el: TXmlElement, name: string) => el.children.find((c) => c.name === name);

const isNil = (el: TXmlElement) =>
  Object.entries(el.attrs).some(([k, v]) => (k === "nil" || k.endsWith(":nil")) && v.trim() === "true");

/** An element's leaf children as name → text (null for xsi:nil); children that have children of their own are left out. */
export const xmlFields = (el: TXmlElement): Record<string, string | null> =>
  Object.fromEntries(el.children.filter((c) => !c.children.length).map((c) => [c.name, isNil(c) ? null : c.text]));

// Request ----------------------------------------------------------------------------------------------------------

/**
 * Our equipment types as Truckstop equipment codes (Truckstop's equipment table: V van, R reefer, F flatbed, SD step
 * deck, LB lowboy, TNK tanker, CONT container; confirm the table at onboarding).
 */
export const TRUCKSTOP_EQUIPMENT: Record<TEquipmentType, string> = {
  dry_van: "V",
  refrigerated: "R",
  flatbed: "F",
  step_deck: "SD",
  lowboy: "LB",
  tanker: "TNK",
  container: "CONT",
};
const TRUCKSTOP_CODES: Record<string, TEquipmentType> = {
  ...Object.fromEntries(Object.entries(TRUCKSTOP_EQUIPMENT).map(([k, v]) => [v, k as TEquipmentType])),
  VR: "dry_van",
  VF: "dry_van",
  RV: "refrigerated",
  FSD: "flatbed",
  SDL: "step_deck",
  DD: "lowboy",
  RGN: "lowboy",
  TANK: "tanker",
  T: "tanker",
  C: "container",
};
const TRUCKSTOP_FIRST_LETTER: Record<string, TEquipmentType> = {
  V: "dry_van",
  R: "refrigerated",
  F: "flatbed",
  S: "step_deck",
  L: "lowboy",
  T: "tanker",
  C: "container",
};

/** Truckstop's equipment code as one of our types (a van when the code tells nothing we know). */
export const truckstopEquipmentType = (code: string | null | undefined): TEquipmentType => {
  const c = code?.trim().toUpperCase() ?? "";
  return TRUCKSTOP_CODES[c] ?? TRUCKSTOP_FIRST_LETTER[c[0] ?? ""] ?? "dry_van";
};

const ALPHA3: Record<string, string> = { US: "USA", CA: "CAN", MX: "MEX" };

/**
 * Truckstop searches by state: OriginState is required (up to 15 US states, Canadian provinces or Mexican states), so
 * an origin without one cannot be searched there. The reason, shown instead of a request the board would refuse.
 */
export const TRUCKSTOP_NORTH_AMERICA_ONLY: TMessage = /*i18n*/ {
  id: "error.board.northAmericaOnly",
  message:
    "{board} searches North America only: the search must start in a US state, a Canadian province or a Mexican state",
  values: { board: BOARD_NAMES.truckstop },
};

/** The origin's country and state as Truckstop takes them, or null when it has none Truckstop knows. */
export const truckstopOrigin = (q: TBoardSearch) => northAmericanState(q.origin.country, q.origin.state);

export type TTruckstopCredentials = { integrationId: string; username: string; password: string };

/** The criteria as Truckstop names them, in the order WCF reads them (alphabetical). */
export const truckstopCriteria = (q: TBoardSearch) => {
  const radius = String(Math.max(1, Math.round(q.radiusMiles)));
  const d = q.destination;
  const to = d ? northAmericanState(null, d.state) : null;
  const from = truckstopOrigin(q);
  const coord = (v: number) => String(Math.round(v * 1e6) / 1e6);
  return [
    ["DestinationCity", d?.city ?? ""],
    ["DestinationCountry", to ? ALPHA3[to.country] : ""],
    ["DestinationRange", d ? String(Math.max(1, Math.round(q.destinationRadiusMiles ?? q.radiusMiles))) : "0"],
    ["DestinationState", to?.state ?? ""],
    ["EquipmentType", q.equipmentType ? TRUCKSTOP_EQUIPMENT[q.equipmentType] : ""],
    ["HoursOld", "0"],
    ["LoadType", "All"],
    ["OriginCity", q.origin.city ?? ""],
    ["OriginCountry", from ? ALPHA3[from.country] : ""],
    ["OriginLatitude", coord(q.origin.latitude)],
    ["OriginLongitude", coord(q.origin.longitude)],
    ["OriginRange", radius],
    // Required by Truckstop; the adapter searches only origins that have one (truckstopOrigin).
    ["OriginState", from?.state ?? ""],
    ["PageNumber", "1"],
    ["PageSize", String(Math.max(1, Math.min(500, Math.round(q.limit))))],
    ["PickupDates", null],
    ["SortBy", "Age"],
    ["SortDescending", "false"],
  ] as const satisfies readonly (readonly [string, string | null])[];
};

/** The SOAP 1.1 envelope of a GetMultipleLoadDetailResults call. */
export const truckstopEnvelope = (c: TTruckstopCredentials, q: TBoardSearch) => {
  const criteria = truckstopCriteria(q)
    .map(([k, v]) => (v === null ? `<web1:${k}/>` : `<web1:${k}>${escapeXml(v)}</web1:${k}>`))
    .join("");
  const ns = Object.entries(TRUCKSTOP_NS)
    .map(([p, uri]) => `xmlns:${p}="${uri}"`)
    .join(" ");
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<soapenv:Envelope ${ns}><soapenv:Header/><soapenv:Body>` +
    "<v12:GetMultipleLoadDetailResults><v12:searchRequest>" +
    `<web:IntegrationId>${escapeXml(c.integrationId)}</web:IntegrationId>` +
    `<web:Password>${escapeXml(c.password)}</web:Password>` +
    `<web:UserName>${escapeXml(c.username)}</web:UserName>` +
    `<web1:Criteria>${criteria}</web1:Criteria>` +
    "</v12:searchRequest></v12:GetMultipleLoadDetailResults>" +
    "</soapenv:Body></soapenv:Envelope>"
  );
};

// Answer -----------------------------------------------------------------------------------------------------------

export type TTruckstopAnswer = {
  /** A SOAP fault's faultstring. */
  fault: string | null;
  /** Errors/Error/ErrorMessage texts. */
  errors: string[];
  loads: TBoardLoad[];
  /** Results that lack what a load needs, with the member at fault. */
  skipped: TBoardSkip[];
};

const place = (f: Record<string, string | null>, side: "Origin" | "Destination"): TBoardPlace | null => {
  const city = text(f[`${side}City`]);
  if (!city) return null;
  const state = text(f[`${side}State`])?.toUpperCase() ?? null;
  return {
    city,
    state,
    country: northAmericanCountry(f[`${side}Country`], state),
    latitude: boardNumber(f[`${side}Latitude`]),
    longitude: boardNumber(f[`${side}Longitude`]),
    postalCode: text(f[`${side}Zip`]),
  };
};

/** The member a result lacks to be a load, or null. */
const missingMember = (f: Record<string, string | null>) =>
  !text(f.ID)
    ? "ID"
    : !text(f.OriginCity)
      ? "OriginCity"
      : !text(f.DestinationCity)
        ? "DestinationCity"
        : parseBoardDate(f.PickupDate) === null
          ? "PickupDate"
          : null;

/** One MultipleLoadDetailResult as a board load; null when it lacks what a load needs. */
export const mapTruckstopResult = (el: TXmlElement): TBoardLoad | null => {
  const f = xmlFields(el);
  const id = text(f.ID);
  const pickup = place(f, "Origin");
  const delivery = place(f, "Destination");
  const pickupDate = parseBoardDate(f.PickupDate);
  if (!id || !pickup || !delivery || pickupDate === null) return null;
  const equipmentTypes = xmlChild(el, "EquipmentTypes");
  const code = text(f.Equipment) ?? (equipmentTypes ? text(xmlDescendants(equipmentTypes, "Code")[0]?.text) : null);
  const weight = boardNumber(f.Weight);
  const miles = boardNumber(f.Mileage) ?? boardNumber(f.Distance);
  return {
    externalId: id,
    title: laneTitle(pickup, delivery),
    description: text(f.SpecInfo),
    pickup,
    delivery,
    pickupDate,
    deliveryDate: parseBoardDate(f.DeliveryDate),
    weightLbs: weight && weight > 0 ? weight : null,
    equipmentType: truckstopEquipmentType(code),
    rateMinor: rateMinorOf(boardNumber(f.PaymentAmount), "USD"),
    currency: "USD",
    tripMiles: miles && miles > 0 ? miles : null,
    contact: {
      company: text(f.TruckCompanyName),
      name: text(f.PointOfContact),
      phone: text(f.PointOfContactPhone) ?? text(f.TruckCompanyPhone),
      email: text(f.TruckCompanyEmail),
      mcNumber: text(f.MCNumber),
    },
    postedAt: parseBoardDate(f.Entered),
  };
};

/** Reads a Truckstop SOAP answer (throws a plain Error when it is not XML). */
export const parseTruckstopAnswer = (xml: string): TTruckstopAnswer => {
  const root = parseXml(xml);
  const fault = xmlDescendants(root, "Fault")[0];
  const faultText = fault
    ? (text(xmlChild(fault, "faultstring")?.text) ??
      text(xmlDescendants(fault, "Text")[0]?.text) ??
      text(xmlChild(fault, "faultcode")?.text) ??
      "SOAP fault")
    : null;
  const errors = xmlDescendants(root, "Error").flatMap((e) => {
    const m = xmlChild(e, "ErrorMessage");
    const t = m ? text(m.text) : null;
    return t ? [t] : [];
  });
  const loads: TBoardLoad[] = [];
  const skipped: TBoardSkip[] = [];
  xmlDescendants(root, "MultipleLoadDetailResult").forEach((r, i) => {
    const load = mapTruckstopResult(r);
    if (load) loads.push(load);
    else {
      const f = xmlFields(r);
      const member = missingMember(f) ?? "";
      skipped.push({ id: text(f.ID), field: `DetailResults.${i}.${member}`, reason: "missing or unreadable" });
    }
  });
  return { fault: faultText, errors, loads, skipped };
};

/** Whether one of Truckstop's error messages is about the credentials. */
export const isCredentialsError = (message: string) =>
  /integration\s*id|user\s*name|password|credential|not\s+authori[sz]ed|authenticat|account/i.test(message);

/** Truckstop: SOAP LoadSearch.svc GetMultipleLoadDetailResults, credentials in the body. */
export const createTruckstopAdapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = BOARD_NAMES.truckstop;
  const base = trimBase(s.baseUrl);
  const budget = new HourlyBudget(s.rateLimitPerHour, board);
  const creds: TTruckstopCredentials = {
    integrationId: s.credentials.integrationId ?? "",
    username: s.credentials.username ?? "",
    password: s.credentials.password ?? "",
  };

  const call = async (q: TBoardSearch): Promise<TBoardResult> => {
    if (!truckstopOrigin(q)) throw new AppError("BAD_REQUEST", TRUCKSTOP_NORTH_AMERICA_ONLY);
    budget.take();
    const res = await exchange(
      board,
      `${base}${TRUCKSTOP_PATH}`,
      {
        method: "POST",
        headers: {
          "Content-Type": "text/xml; charset=utf-8",
          SOAPAction: `"${TRUCKSTOP_SOAP_ACTION}"`,
          Accept: "text/xml",
        },
        body: truckstopEnvelope(creds, q),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    if (res.status === 429) throw serviceLimiting(board, retryAfterSeconds(res.headers));
    let answer: TTruckstopAnswer | null = null;
    try {
      answer = parseTruckstopAnswer(res.text);
    } catch {
      // Not XML: an HTML error page or a proxy's answer. The status tells the rest.
      failOnStatus(board, res);
      throw serviceUnreadable(board, "(not XML)");
    }
    if (answer.fault) {
      if (res.status === 401 || res.status === 403) throw credentialsRefused(board, answer.fault);
      throw serviceFailed(board, answer.fault);
    }
    failOnStatus(board, res);
    // Truckstop reports refusals inside a 200 answer.
    const refusal = answer.errors.find(isCredentialsError);
    if (refusal) throw credentialsRefused(board, refusal);
    if (answer.errors.length) throw serviceFailed(board, answer.errors.join("; "));
    logSkipped(board, s.name, answer.skipped);
    return { loads: answer.loads, skipped: answer.skipped };
  };

  return {
    provider: "truckstop",
    boardName: BOARD_NAMES.truckstop,
    sandbox: isSandboxBoardUrl(base),
    async test() {
      // A one-result search around Chicago: only the answer's errors matter.
      await call({
        origin: { latitude: 41.8781, longitude: -87.6298, city: "Chicago", state: "IL", country: "US" },
        radiusMiles: 100,
        limit: 1,
      });
    },
    search: (q) => call(q),
    outsideArea: (q) => (truckstopOrigin(q) ? null : TRUCKSTOP_NORTH_AMERICA_ONLY),
  };
};
