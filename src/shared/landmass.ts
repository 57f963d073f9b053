// Whether a load's two countries are joined by road: a store order from Germany to the United States is ocean freight,
// not a truck load. Each country's continent is GeoNames' (the gazetteer's source, countryInfo.txt); the continents
// joined by road are listed (Europe, Asia and Africa through Turkey and Sinai; not the Americas, the Darién Gap has no
// road); island countries with no road to any neighbour are landmasses of their own (shared islands share one). The
// rules and their known limits are in docs/product-rules.md ("Ocean crossings").

export type TContinent = "AF" | "AN" | "AS" | "EU" | "NA" | "OC" | "SA";

const CONTINENT_COUNTRIES: Record<TContinent, string> = {
  AF: "AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW",
  AN: "AQ BV GS HM TF",
  AS: "AE AF AM AZ BD BH BN BT CC CN CX CY GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE",
  EU: "AD AL AT AX BA BE BG BY CH CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK",
  NA: "AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR SV SX TC TT US VC VG VI",
  OC: "AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS",
  SA: "AR BO BR CL CO EC FK GF GY PE PY SR UY VE",
};

/** Each country's continent (ISO 3166-1 alpha-2 → GeoNames continent). */
export const CONTINENT_OF: Readonly<Record<string, TContinent>> = Object.fromEntries(
  (Object.entries(CONTINENT_COUNTRIES) as [TContinent, string][]).flatMap(([continent, codes]) =>
    codes.split(" ").map((code) => [code, continent]),
  ),
);

/**
 * Countries no road joins to any neighbour (their own landmass), and islands two countries share (one landmass). Great
 * Britain is not here: trucks cross the Channel Tunnel. Every Oceanian country is an island (Papua New Guinea shares
 * New Guinea with Indonesia, a road link below).
 */
const ISLANDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    (
      "AG AI AW BB BL BM BQ BS CU CW DM GD GL GP JM KN KY LC MF MQ MS PM PR SX TC TT VC VG VI " + // the Caribbean, the North Atlantic
      "CV KM MG MU RE SC SH ST YT " + // African islands
      "BH CY JP LK MV PH TW " + // Asian islands (Bahrain has its causeway: a road link below)
      "FO IS MT " + // European islands
      "FK " + // the Falklands
      CONTINENT_COUNTRIES.OC
    )
      .split(" ")
      .filter(Boolean)
      .map((code) => [code, code]),
  ),
  HT: "HISPANIOLA",
  DO: "HISPANIOLA",
};

/** Landmasses a road joins (either way). */
const ROAD_LINKS: readonly (readonly [string, string])[] = [
  ["EU", "AS"], // the Bosphorus bridges, and Russia
  ["AS", "AF"], // Sinai and the Suez Canal's bridges and tunnels
  ["EU", "AF"], // through Turkey, the Levant and Sinai
  ["BH", "AS"], // the King Fahd Causeway
  ["PG", "AS"], // New Guinea's road across the Indonesian border
];

const landmassOf = (code: string) => ISLANDS[code] ?? CONTINENT_OF[code];

let byName: Map<string, string> | undefined;
/** A country's ISO code from its code or its English name (as loads keep it); undefined when unknown. */
export const countryCodeOf = (country: string): string | undefined => {
  const text = country.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    return CONTINENT_OF[code] ? code : undefined;
  }
  if (!byName) {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    byName = new Map();
    for (const code of Object.keys(CONTINENT_OF)) {
      const name = names.of(code);
      if (name) byName.set(name.toLowerCase(), code);
    }
    // Names addresses also use.
    for (const [name, code] of [
      ["usa", "US"],
      ["united states of america", "US"],
      ["uk", "GB"],
      ["great britain", "GB"],
      ["england", "GB"],
      ["scotland", "GB"],
      ["wales", "GB"],
      ["turkey", "TR"],
      ["czech republic", "CZ"],
      ["ivory coast", "CI"],
    ] as const)
      byName.set(name, code);
  }
  return byName.get(text.toLowerCase());
};

/**
 * Whether a load from one country to the other crosses an ocean (no road joins them): their ISO codes when it does,
 * null when a road does, when both are the same country, or when either country is unknown.
 */
export const oceanCrossing = (fromCountry: string, toCountry: string): { from: string; to: string } | null => {
  const from = countryCodeOf(fromCountry);
  const to = countryCodeOf(toCountry);
  if (!from || !to || from === to) return null;
  const a = landmassOf(from);
  const b = landmassOf(to);
  if (!a || !b || a === b) return null;
  if (ROAD_LINKS.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) return null;
  return { from, to };
};
