import { z } from "zod";
import { ZLoadSearchInput } from "./loads";
import { zText } from "./text";

// Saved searches: a name for the board's filters. The filters are kept exactly as `GET /api/loads` takes them in its
// query (text values, equipment comma-separated), so an answer's `search` can be sent to that route as it is, and
// they are checked by the board's own schema.

/** The board's parameters a saved search keeps: paging is not part of a search. */
export const SAVED_SEARCH_KEYS = (
  Object.keys(ZLoadSearchInput.shape) as (keyof typeof ZLoadSearchInput.shape)[]
).filter((k) => k !== "page" && k !== "pageSize" && k !== "status");

const value = z.union([zText(), z.number(), z.boolean(), z.array(zText())], {
  error: (i) => `search.${String(i.path?.at(-1) ?? "")} must be text, a number or a list`,
});

/**
 * The search's parameters: an object of the board's query parameters, checked by the board's schema (an issue names
 * `search.<parameter>`). Kept as query text, blanks and paging left out.
 */
export const ZSavedSearchParams = z
  .record(zText(), value.nullable(), { error: "search must be an object of the board's parameters" })
  .superRefine((raw, ctx) => {
    const parsed = ZLoadSearchInput.safeParse(raw);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  })
  .transform((raw) => {
    const out: Record<string, string> = {};
    for (const k of SAVED_SEARCH_KEYS) {
      const v = raw[k];
      if (v === undefined || v === null || v === "") continue;
      const text = Array.isArray(v) ? v.join(",") : String(v).trim();
      if (text !== "") out[k] = text;
    }
    return out;
  });

const ZName = zText({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(60, "name must be at most 60 characters");

const placeName = (field: string) =>
  z.preprocess(
    (v) => (v === "" ? null : v),
    zText({ error: `${field} must be text` })
      .trim()
      .max(120, `${field} must be at most 120 characters`)
      .nullish()
      .transform((v) => v || null),
  );

export const ZSavedSearchInput = z.object({
  name: ZName,
  search: ZSavedSearchParams,
  /** The names the board shows for the search's origin and destination points (the gazetteer's). */
  originName: placeName("originName"),
  destinationName: placeName("destinationName"),
});
export type TSavedSearchInput = z.infer<typeof ZSavedSearchInput>;

export const ZRenameSavedSearchInput = z.object({ name: ZName });

export const ZSavedSearch = z.object({
  id: z.number().int(),
  name: z.string(),
  search: z.record(z.string(), z.string()),
  originName: z.string().nullable(),
  destinationName: z.string().nullable(),
  /** Loads that matched since the search was last opened. */
  newCount: z.number().int(),
  lastOpenedAt: z.string(),
  createdAt: z.string(),
});
export type TSavedSearch = z.infer<typeof ZSavedSearch>;
