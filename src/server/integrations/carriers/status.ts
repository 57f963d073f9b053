import type { TTrackingStatus } from "../../../shared/schemas/shipping";

// Each carrier's codes collapsed to delivered, in_transit, exception, pending or unknown (the codes each carrier's
// tracking API documents, grouped as Karrio's connectors group them). A code we
// do not know is "unknown", never a guess.

const table = (groups: Record<TTrackingStatus, string[]>) => {
  const m = new Map<string, TTrackingStatus>();
  for (const [status, codes] of Object.entries(groups) as [TTrackingStatus, string[]][])
    for (const c of codes) m.set(c.toUpperCase(), status);
  return m;
};

const FEDEX = table({
  pending: ["OC", "OX", "EP", "MD"],
  in_transit: [
    "PU",
    "PX",
    "OF",
    "AP",
    "IT",
    "IX",
    "AA",
    "AC",
    "AF",
    "AR",
    "AX",
    "DP",
    "EA",
    "EO",
    "FD",
    "LO",
    "OW",
    "PF",
    "PL",
    "PM",
    "SF",
    "TR",
    "AD",
    "ED",
    "OD",
    "HL",
    "HP",
    "DY",
    "DD",
    "PY",
    "PD",
  ],
  delivered: ["DL"],
  exception: ["CD", "SE", "HA", "DE", "CA", "RD", "RS", "RT"],
  unknown: [],
});

export const fedexStatus = (code: string | undefined | null): TTrackingStatus =>
  FEDEX.get((code ?? "").toUpperCase()) ?? "unknown";

const UPS_TYPE = table({
  delivered: ["D", "DD"],
  in_transit: ["I", "P", "DO", "W"],
  pending: ["M"],
  exception: ["X", "MV"],
  unknown: ["NA", "U"],
});

/** UPS: the activity type first, then the status code (Karrio's order). */
export const upsStatus = (type: string | undefined | null, code?: string | null): TTrackingStatus => {
  const byType = UPS_TYPE.get((type ?? "").toUpperCase());
  if (byType && byType !== "unknown") return byType;
  const c = (code ?? "").toUpperCase();
  if (["FS", "KB", "F4"].includes(c)) return "delivered";
  if (["MP", "XD", "OA"].includes(c)) return "pending";
  if (["OR", "PU", "OC", "OG", "DP", "AA", "AR", "AF", "OT", "OD", "OF", "RP"].includes(c)) return "in_transit";
  if (["EX", "HX", "RF", "UR", "VD", "CA", "RS", "RT"].includes(c)) return "exception";
  return "unknown";
};

const USPS_EVENTS = table({
  delivered: ["01"],
  pending: ["GX", "MA"],
  in_transit: ["02X", "03", "07", "10", "14", "30", "81", "82", "AD", "OF", "PC", "SF", "T1", "TL", "A1", "U1", "L1"],
  exception: [
    "02",
    "04",
    "05",
    "09",
    "21",
    "22",
    "23",
    "24",
    "25",
    "26",
    "27",
    "28",
    "29",
    "31",
    "44",
    "51",
    "52",
    "53",
    "54",
    "55",
    "56",
    "57",
    "58",
    "59",
  ],
  unknown: [],
});

/** USPS: the status category first, then the event code, then the words of the status. */
export const uspsStatus = (
  category?: string | null,
  eventCode?: string | null,
  text?: string | null,
): TTrackingStatus => {
  const c = (category ?? "").toLowerCase();
  if (c === "delivered") return "delivered";
  if (c === "pre-shipment") return "pending";
  if (["alert", "delivery attempt", "return to sender"].includes(c)) return "exception";
  if (c === "in-transit" || c === "accepted") return "in_transit";
  const byCode = USPS_EVENTS.get((eventCode ?? "").toUpperCase());
  if (byCode) return byCode;
  const t = (text ?? "").toLowerCase();
  if (t.includes("delivered")) return "delivered";
  if (t.includes("label created") || t.includes("pre-shipment")) return "pending";
  if (t.includes("notice left") || t.includes("return to sender") || t.includes("undeliverable")) return "exception";
  if (
    t.includes("in transit") ||
    t.includes("arrived") ||
    t.includes("departed") ||
    t.includes("out for delivery") ||
    t.includes("in possession")
  )
    return "in_transit";
  return "unknown";
};
