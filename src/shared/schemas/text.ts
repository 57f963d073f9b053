import { z } from "zod";

// Every text an input schema takes is built here, so one rule holds for every field of every door (web, REST body and
// query, tRPC, CLI): text must be storable as sent on both engines. PostgreSQL refuses a NUL character in text (the
// statement fails: a 500 where a 400 belongs) and SQLite stores it but cuts the text there in functions such as
// length(); half of a surrogate pair (possible in JSON's \ud800 escapes, not in real Unicode text) is stored by both
// as U+FFFD, so the text read back is not the text sent.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** True when the text holds no NUL character and no unpaired surrogate. */
export const isStorableText = (s: string) => !s.includes("\u0000") && !LONE_SURROGATE.test(s);

/** The issue for text that cannot be stored, naming the field by its whole path (known once the issue is reported). */
export const STORABLE_TEXT = {
  error: (issue: { path?: PropertyKey[] }) =>
    `${issue.path?.length ? issue.path.map(String).join(".") : "text"} must not contain a NUL character or an unpaired surrogate`,
};

/** `z.string(params)` that refuses text the databases cannot store as sent; chain trim, min, max… as on z.string. */
export const zText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, STORABLE_TEXT);
