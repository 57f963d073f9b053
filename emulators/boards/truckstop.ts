// Truckstop emulator: the SOAP 1.1 load search, POST /v13/Searching/LoadSearch.svc, action GetMultipleLoadDetailResults.
// Accepts IntegrationId, UserName and Password "sandbox"; anything else gets a 200 answer whose Errors element says
// "Invalid Integration Id, UserName or Password", as Truckstop does. It reads the envelope with its own strict checks
// (namespaces, escaping, the alphabetical order of Criteria members) rather than the adapter's parser.
//
// Real WCF silently ignores data-contract members that arrive out of order; this emulator answers a SOAP fault
// instead, so that a wrong order shows up in tests.
//
// OriginState is required (up to 15 US states, Canadian provinces or Mexican states, comma-separated): a search without
// one, or with a code that is none of them, is refused with a SOAP fault (s:Client), as Truckstop's validation does;
// coordinates and a range narrow a search within the states, they do not replace them.
import type { TEquipmentType } from "../../src/shared/constants";
import {
  createBoardState,
  datesOf,
  findCity,
  northAmericanLoads,
  searchLoads,
  type TBoardControl,
  type TEmuLoad,
  type TEmuQuery,
} from "./model";

export const TRUCKSTOP_SANDBOX = { username: "sandbox", password: "sandbox", integrationId: "sandbox" } as const;

const PATH = "/v13/Searching/LoadSearch.svc";
const ACTION = "http://webservices.truckstop.com/v12/ILoadSearch/GetMultipleLoadDetailResults";
const NS = {
  envelope: "http://schemas.xmlsoap.org/soap/envelope/",
  v12: "http://webservices.truckstop.com/v12",
  web: "http://schemas.datacontract.org/2004/07/WebServices",
  searching: "http://schemas.datacontract.org/2004/07/WebServices.Searching",
  objects: "http://schemas.datacontract.org/2004/07/Truckstop2.Objects",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
};
const BAD_CREDENTIALS = "Invalid Integration Id, UserName or Password";

const CODES: Record<string, TEquipmentType[]> = {
  V: ["dry_van"],
  R: ["refrigerated"],
  VR: ["dry_van", "refrigerated"],
  F: ["flatbed"],
  SD: ["step_deck"],
  FSD: ["flatbed", "step_deck"],
  LB: ["lowboy"],
  TNK: ["tanker"],
  CONT: ["container"],
};
const CODE_OF: Record<TEquipmentType, [string, string]> = {
  dry_van: ["V", "Van"],
  refrigerated: ["R", "Reefer"],
  flatbed: ["F", "Flatbed"],
  step_deck: ["SD", "Step Deck"],
  lowboy: ["LB", "Lowboy"],
  tanker: ["TNK", "Tanker"],
  container: ["CONT", "Container"],
};
const COUNTRY3: Record<string, string> = { US: "USA", CA: "CAN", MX: "MEX" };
const STATE_CODES = new Set(
  (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR " +
    "PA RI SC SD TN TX UT VT VA WA WV WI WY PR AB BC MB NB NL NS NT NU ON PE QC SK YT AG BS CH CI CL CM CO CS DF DG GR " +
    "GT HG JA MC MI MO NA NL OA PU QE QR SI SL SO TB TL TM VE YU ZA"
  ).split(" "),
);

// Reading the request ----------------------------------------------------------------------------------------------

const escapeText = (v: string) =>
  v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const decodeText = (v: string) =>
  v.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === "lt"
      ? "<"
      : e === "gt"
        ? ">"
        : e === "amp"
          ? "&"
          : e === "quot"
            ? '"'
            : e === "apos"
              ? "'"
              : String.fromCodePoint(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );

const TAG = /<(\/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const TEXT_OK = /^(?:[^<&]|&(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);)*$/;

/** What is wrong with the envelope as XML, or null: tags balanced, no stray '<', every '&' an entity. */
const xmlProblem = (xml: string): string | null => {
  const body = xml.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, "").replace(/<!--[\s\S]*?-->/g, "");
  const stack: string[] = [];
  let last = 0;
  for (const m of body.matchAll(TAG)) {
    const between = body.slice(last, m.index);
    if (!TEXT_OK.test(between)) return `invalid character data near "${between.trim().slice(0, 40)}"`;
    last = m.index + m[0].length;
    if (m[1] === "/") {
      if (stack.pop() !== m[2]) return `unexpected end tag </${m[2]}>`;
    } else if (m[4] !== "/") stack.push(m[2]);
  }
  if (!TEXT_OK.test(body.slice(last))) return "invalid character data at the end";
  if (stack.length) return `element <${stack.at(-1)}> is not closed`;
  return null;
};

/** The prefixes bound to each namespace URI anywhere in the document. */
const prefixesOf = (xml: string) => {
  const map = new Map<string, Set<string>>();
  for (const m of xml.matchAll(/xmlns:([\w.-]+)\s*=\s*"([^"]*)"/g)) {
    const set = map.get(m[2]) ?? new Set<string>();
    set.add(m[1]);
    map.set(m[2], set);
  }
  return (uri: string) => map.get(uri) ?? new Set<string>();
};

/** The members of an element in document order: name, namespace prefix, text (decoded; null for an empty element). */
const membersOf = (inner: string) =>
  [...inner.matchAll(/<([\w.-]+):([\w.-]+)(?:\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1:\2>)/g)].map((m) => ({
    prefix: m[1],
    name: m[2],
    value: m[3] === undefined ? "" : decodeText(m[3]),
  }));

type TRequest = { integrationId: string; username: string; password: string; criteria: Record<string, string> };

const readRequest = (xml: string): TRequest | string => {
  const problem = xmlProblem(xml);
  if (problem) return `The formatter threw an exception while trying to deserialize the message: ${problem}.`;
  const ns = prefixesOf(xml);
  const inNs = (uri: string, prefix: string) => ns(uri).has(prefix);
  const op = /<([\w.-]+):GetMultipleLoadDetailResults>([\s\S]*)<\/\1:GetMultipleLoadDetailResults>/.exec(xml);
  if (!op || !inNs(NS.v12, op[1]))
    return `OperationFormatter encountered an invalid Message body. Expected GetMultipleLoadDetailResults in namespace ${NS.v12}.`;
  const request = /<([\w.-]+):searchRequest>([\s\S]*)<\/\1:searchRequest>/.exec(op[2]);
  if (!request || !inNs(NS.v12, request[1])) return "searchRequest is missing.";
  const members = membersOf(request[2]);
  const base = (name: string) => {
    const m = members.find((x) => x.name === name && inNs(NS.web, x.prefix));
    return m?.value ?? "";
  };
  const criteriaMatch = /<([\w.-]+):Criteria>([\s\S]*?)<\/\1:Criteria>/.exec(request[2]);
  if (!criteriaMatch || !inNs(NS.searching, criteriaMatch[1]))
    return `searchRequest.Criteria in namespace ${NS.searching} is missing.`;
  const criteria = membersOf(criteriaMatch[2]);
  const wrongNs = criteria.find((c) => !inNs(NS.searching, c.prefix));
  if (wrongNs) return `Criteria member ${wrongNs.name} is not in namespace ${NS.searching}.`;
  const names = criteria.map((c) => c.name);
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const misplaced = names.findIndex((n, i) => n !== sorted[i]);
  if (misplaced >= 0)
    return `Criteria members must be in alphabetical order: ${names[misplaced]} is out of place (WCF would ignore it).`;
  return {
    integrationId: base("IntegrationId"),
    username: base("UserName"),
    password: base("Password"),
    criteria: Object.fromEntries(criteria.map((c) => [c.name, c.value.trim()])),
  };
};

// Answers ----------------------------------------------------------------------------------------------------------

const xml = (body: string, status = 200) =>
  new Response(`<s:Envelope xmlns:s="${NS.envelope}"><s:Body>${body}</s:Body></s:Envelope>`, {
    status,
    headers: { "Content-Type": "text/xml; charset=utf-8" },
  });

const fault = (code: string, message: string) =>
  xml(
    `<s:Fault><faultcode xmlns:a="http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher">a:${code}</faultcode><faultstring xml:lang="en-US">${escapeText(message)}</faultstring></s:Fault>`,
    500,
  );

/** A validation fault of the service itself (a FaultException): faultcode s:Client. */
const clientFault = (message: string) =>
  xml(
    `<s:Fault><faultcode>s:Client</faultcode><faultstring xml:lang="en-US">${escapeText(message)}</faultstring></s:Fault>`,
    500,
  );

const answer = (errors: string[], results: string) =>
  xml(
    `<GetMultipleLoadDetailResultsResponse xmlns="${NS.v12}"><GetMultipleLoadDetailResultsResult xmlns:a="${NS.searching}" xmlns:i="${NS.xsi}">` +
      (errors.length
        ? `<Errors xmlns="${NS.web}">${errors.map((e) => `<Error><ErrorMessage>${escapeText(e)}</ErrorMessage></Error>`).join("")}</Errors>`
        : `<Errors xmlns="${NS.web}"/>`) +
      (results ? `<a:DetailResults>${results}</a:DetailResults>` : "<a:DetailResults/>") +
      "</GetMultipleLoadDetailResultsResult></GetMultipleLoadDetailResultsResponse>",
  );

/** xs:dateTime as Truckstop sends it: local time at the place, no zone (here UTC). */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** A load as a MultipleLoadDetailResult: members in alphabetical order, xsi:nil for nothing. */
export const truckstopResult = (l: TEmuLoad, originMiles: number, now = Date.now()) => {
  const d = datesOf(l, now);
  const [code, description] = CODE_OF[l.equipment];
  const fields: Record<string, string | number | null> = {
    Age: String(Math.max(0, Math.round((now - d.postedAt) / 3_600_000))),
    Bond: "0",
    Credit: "A",
    DeliveryDate: d.deliveryAt === null ? null : local(d.deliveryAt),
    DeliveryTime: d.deliveryAt === null ? null : local(d.deliveryAt).slice(11, 16),
    DestinationCity: l.destination.city,
    DestinationCountry: COUNTRY3[l.destination.country] ?? l.destination.country,
    DestinationDistance: "0",
    DestinationLatitude: l.destination.latitude,
    DestinationLongitude: l.destination.longitude,
    DestinationState: l.destination.state,
    DestinationZip: l.destination.postalCode,
    DOTNumber: l.company.mcNumber === null ? null : String(Number(l.company.mcNumber) * 3 + 1),
    Entered: local(d.postedAt),
    Equipment: code,
    ID: l.id,
    Length: String(l.lengthFeet),
    LoadType: l.fullLoad ? "Full" : "Partial",
    MCNumber: l.company.mcNumber,
    Mileage: l.miles,
    OriginCity: l.origin.city,
    OriginCountry: COUNTRY3[l.origin.country] ?? l.origin.country,
    OriginDistance: String(Math.round(originMiles)),
    OriginLatitude: l.origin.latitude,
    OriginLongitude: l.origin.longitude,
    OriginState: l.origin.state,
    OriginZip: l.origin.postalCode,
    PaymentAmount: l.rate === null ? "0" : l.rate.toFixed(2),
    PickupDate: local(d.pickupAt),
    PickupTime: local(d.pickupAt).slice(11, 16),
    PointOfContact: l.contactName,
    PointOfContactPhone: l.company.phone,
    SpecInfo: l.comments,
    Stops: "0",
    TruckCompanyCity: l.company.city,
    TruckCompanyEmail: l.company.email,
    TruckCompanyName: l.company.name,
    TruckCompanyPhone: l.company.phone,
    TruckCompanyState: l.company.state,
    Weight: l.weightLbs === null ? "" : String(l.weightLbs),
    Width: "102",
  };
  const members = Object.keys(fields)
    .concat("EquipmentTypes")
    .sort()
    .map((k) => {
      if (k === "EquipmentTypes")
        return `<a:EquipmentTypes xmlns:b="${NS.objects}"><b:CategoryId>1</b:CategoryId><b:Code>${code}</b:Code><b:Description>${description}</b:Description></a:EquipmentTypes>`;
      const v = fields[k];
      return v === null ? `<a:${k} i:nil="true"/>` : `<a:${k}>${escapeText(String(v))}</a:${k}>`;
    });
  return `<a:MultipleLoadDetailResult>${members.join("")}</a:MultipleLoadDetailResult>`;
};

export type TTruckstopControl = TBoardControl & {
  /** The last request as the emulator read it (credentials and criteria, decoded). */
  lastRequest: TRequest | null;
};

const num = (v: string | undefined) => {
  const n = Number(v);
  return v !== undefined && v.trim() !== "" && Number.isFinite(n) ? n : null;
};

/** A criteria area: coordinates and range; else a known city in the state; else the states. */
const areaOf = (c: Record<string, string>, side: "Origin" | "Destination"): TEmuQuery["origin"] | null => {
  const range = num(c[`${side}Range`]) ?? 0;
  const lat = num(c[`${side}Latitude`]);
  const lng = num(c[`${side}Longitude`]);
  const states = (c[`${side}State`] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (lat !== null && lng !== null && (lat !== 0 || lng !== 0) && range > 0)
    return { latitude: lat, longitude: lng, radiusMiles: range };
  const city = findCity(c[`${side}City`], states[0]);
  if (city && range > 0) return { latitude: city.latitude, longitude: city.longitude, radiusMiles: range };
  return states.length ? { states } : null;
};

export const createTruckstopEmulator = () => {
  const state = createBoardState({
    seed: () => northAmericanLoads("truckstop", (i) => String(330000101 + i * 7)),
    tokenLifetimeSeconds: 0,
    // IIS's own page when the application pool is down.
    outage: () =>
      new Response(
        '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN""http://www.w3.org/TR/html4/strict.dtd">\r\n<HTML><HEAD><TITLE>Service Unavailable</TITLE>\r\n<META HTTP-EQUIV="Content-Type" Content="text/html; charset=us-ascii"></HEAD>\r\n<BODY><h2>Service Unavailable</h2>\r\n<hr><p>HTTP Error 503. The service is unavailable.</p>\r\n</BODY></HTML>\r\n',
        { status: 503, headers: { "Content-Type": "text/html; charset=us-ascii" } },
      ),
    rateLimited: () =>
      new Response("Too many requests", {
        status: 429,
        headers: { "Content-Type": "text/plain", "Retry-After": "30" },
      }),
  });
  const control: TTruckstopControl = Object.assign(state.control, { lastRequest: null as TRequest | null });
  const baseReset = control.reset;
  control.reset = () => {
    baseReset();
    control.lastRequest = null;
  };

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    if (req.method !== "POST" || path.toLowerCase() !== PATH.toLowerCase())
      return new Response("Endpoint not found.", { status: 404, headers: { "Content-Type": "text/html" } });
    const refused = await state.enter("search");
    if (refused) return refused;
    const type = req.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("text/xml"))
      return new Response(
        `Cannot process the message because the content type '${type}' was not the expected type 'text/xml; charset=utf-8'.`,
        { status: 415 },
      );
    const action = (req.headers.get("soapaction") ?? "").replace(/^"|"$/g, "");
    if (action !== ACTION)
      return fault(
        "ActionNotSupported",
        `The message with Action '${action}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.`,
      );
    const r = readRequest(await req.text());
    if (typeof r === "string") return fault("DeserializationFailed", r);
    control.lastRequest = r;
    if (
      r.integrationId !== TRUCKSTOP_SANDBOX.integrationId ||
      r.username !== TRUCKSTOP_SANDBOX.username ||
      r.password !== TRUCKSTOP_SANDBOX.password
    )
      return answer([BAD_CREDENTIALS], "");
    const c = r.criteria;
    const originStates = (c.OriginState ?? "")
      .split(",")
      .map((v) => v.trim().toUpperCase())
      .filter(Boolean);
    if (!originStates.length) return clientFault("OriginState is required: give up to 15 states or provinces.");
    const unknownState = originStates.find((v) => !STATE_CODES.has(v));
    if (unknownState) return clientFault(`OriginState '${unknownState}' is not a state or province Truckstop knows.`);
    if (originStates.length > 15) return clientFault("OriginState takes at most 15 states or provinces.");
    const origin = areaOf(c, "Origin");
    if (!origin) return answer(["Origin State is required"], "");
    const destination = c.DestinationCity || c.DestinationState ? areaOf(c, "Destination") : null;
    const codes = (c.EquipmentType ?? "")
      .split(",")
      .map((e) => e.trim().toUpperCase())
      .filter(Boolean);
    const unknown = codes.find((e) => !CODES[e]);
    if (unknown) return answer([`Invalid Equipment Type: ${unknown}`], "");
    const loadType = (c.LoadType ?? "All").toLowerCase();
    const hoursOld = num(c.HoursOld) ?? 0;
    const now = Date.now();
    const pageSize = Math.min(500, Math.max(1, num(c.PageSize) ?? 50));
    const page = Math.max(1, num(c.PageNumber) ?? 1);
    const loads = state
      .current()
      .filter((l) => loadType === "all" || (loadType === "full") === l.fullLoad)
      .filter((l) => hoursOld <= 0 || now - datesOf(l, now).postedAt <= hoursOld * 3_600_000);
    const { results } = searchLoads(loads, {
      origin,
      destination,
      equipment: codes.flatMap((e) => CODES[e] ?? []),
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return answer([], results.map((x) => truckstopResult(x.load, x.originMiles, now)).join(""));
  };
  return { handle, control };
};
