// Which carrier a tracking number belongs to, from its format and check digit (the carriers' published
// formats; the check digits as the open tracking-number data sets, such as jkeen/tracking_number_data, define them).

export const CARRIERS = ["fedex", "ups", "usps"] as const;
export type TCarrier = (typeof CARRIERS)[number];

export type TDetected = { carrier: TCarrier; format: string; number: string };

const digitsOf = (s: string) => [...s].map(Number);

/** UPS letters count as (ASCII − 3) mod 10; digits as themselves. */
const upsValue = (c: string) => (/\d/.test(c) ? Number(c) : (c.charCodeAt(0) - 3) % 10);

/** 1Z + 15 characters + check: mod 10 over the 15, odd 0-based positions doubled. */
export const isValidUps1Z = (n: string) => {
  if (!/^1Z[0-9A-Z]{16}$/.test(n)) return false;
  const body = n.slice(2, 17);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += upsValue(body[i]) * (i % 2 === 1 ? 2 : 1);
  return (10 - (sum % 10)) % 10 === Number(n[17]);
};

/** FedEx Express 12: weights 3,1,7 from the left over 11 digits, sum mod 11 mod 10. */
export const isValidFedex12 = (n: string) => {
  if (!/^\d{12}$/.test(n)) return false;
  const w = [3, 1, 7];
  const d = digitsOf(n);
  const sum = d.slice(0, 11).reduce((s, x, i) => s + x * w[i % 3], 0);
  return (sum % 11) % 10 === d[11];
};

/** Mod 10 with weights alternating (first weight from the left), check = (10 − sum mod 10) mod 10. */
const mod10 = (payload: number[], weights: [number, number]) => {
  const sum = payload.reduce((s, x, i) => s + x * weights[i % 2], 0);
  return (10 - (sum % 10)) % 10;
};

/** FedEx Ground 15: 14 digits, odd 0-based positions ×3. */
export const isValidFedex15 = (n: string) =>
  /^\d{15}$/.test(n) && mod10(digitsOf(n.slice(0, 14)), [1, 3]) === Number(n[14]);

/** FedEx Ground 96 (22 digits): the check covers the 14-digit serial after the 7-digit prefix. */
export const isValidFedex96 = (n: string) =>
  /^96\d{20}$/.test(n) && mod10(digitsOf(n.slice(7, 21)), [1, 3]) === Number(n[21]);

/** USPS IMpb (and FedEx SmartPost once prefixed): mod 10 from the right, rightmost payload digit ×3. */
const impbCheck = (payload: string) => {
  const d = digitsOf(payload).reverse();
  const sum = d.reduce((s, x, i) => s + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
};
export const isValidImpb = (n: string) => /^\d{20,34}$/.test(n) && impbCheck(n.slice(0, -1)) === Number(n.at(-1));

/** FedEx 20-digit (Ground Economy / SmartPost): the IMpb rule after a "92" prefix. */
export const isValidFedex20 = (n: string) => /^\d{20}$/.test(n) && isValidImpb(`92${n}`);

/** USPS 20: weights 3,1 from the left over 19 digits. */
export const isValidUsps20 = (n: string) =>
  /^\d{20}$/.test(n) && mod10(digitsOf(n.slice(0, 19)), [3, 1]) === Number(n[19]);

/** UPU S10: 2 letters, 8 digits, check, 2-letter country. */
export const isValidS10 = (n: string) => {
  const m = /^[A-Z]{2}(\d{8})(\d)[A-Z]{2}$/.exec(n);
  if (!m) return false;
  const w = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = digitsOf(m[1]).reduce((s, x, i) => s + x * w[i], 0);
  const c = 11 - (sum % 11);
  return (c === 10 ? 0 : c === 11 ? 5 : c) === Number(m[2]);
};

/** USPS IMpb, possibly behind a 420+ZIP routing prefix. */
const uspsImpb = (n: string): string | null => {
  const candidates = [n];
  if (/^420\d{5}\d{22,26}$/.test(n)) candidates.push(n.slice(8));
  if (/^420\d{9}\d{22,26}$/.test(n)) candidates.push(n.slice(12));
  for (const c of candidates) if (/^9[1-5]\d{20}(\d{4})?$/.test(c) && isValidImpb(c)) return c;
  return null;
};

/** Spaces and dashes are ignored, letters upper-cased. */
export const normalizeTrackingNumber = (raw: string) => raw.replace(/[\s-]+/g, "").toUpperCase();

/**
 * The carriers a number may belong to, most specific first: distinctive prefixes, then whichever check digit holds.
 * An empty list means it fits no known format.
 */
export const detectCarriers = (raw: string): TDetected[] => {
  const n = normalizeTrackingNumber(raw);
  const out: TDetected[] = [];
  const add = (carrier: TCarrier, format: string) => out.push({ carrier, format, number: n });
  if (isValidUps1Z(n)) add("ups", "UPS 1Z");
  if (isValidS10(n)) add("usps", "UPU S10");
  if (isValidFedex96(n)) add("fedex", "FedEx Ground 96");
  if (uspsImpb(n)) add("usps", "USPS IMpb");
  if (isValidFedex12(n)) add("fedex", "FedEx Express 12");
  if (isValidFedex15(n)) add("fedex", "FedEx Ground 15");
  if (isValidFedex20(n)) add("fedex", "FedEx 20");
  if (isValidUsps20(n) && !out.some((d) => d.carrier === "usps")) add("usps", "USPS 20");
  return out;
};
