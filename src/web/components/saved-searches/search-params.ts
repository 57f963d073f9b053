import type { TLoadSort } from "../../../shared/schemas/loads";

/** The board's filters as `GET /api/loads` takes them, with the sort: what a saved search keeps. */
export const boardSearchParams = (input: Record<string, unknown>, sort: TLoadSort) => {
  const out: Record<string, string | number | string[] | undefined> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) out[k] = v.map(String);
    else if (typeof v === "number" || typeof v === "string") out[k] = v;
  }
  if (sort !== "distance") out.sort = sort;
  return out;
};
