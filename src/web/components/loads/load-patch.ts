import type { TCreateLoadForm } from "../../../shared/schemas/loads";

/** The posted load's fields as the edit form started from them (null or missing: empty). */
export type TLoadFormStart = { [K in keyof TCreateLoadForm]?: TCreateLoadForm[K] | null };

const minute = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 60_000) : null);

/**
 * Only what the form changed: a date the picker shows to the minute counts as changed when its minute moved, so an
 * untouched date is never sent (and never told to the bidders as changed).
 */
export const changedFields = (initial: TLoadFormStart, next: TCreateLoadForm) => {
  const patch: Partial<TCreateLoadForm> = {};
  for (const k of Object.keys(next) as (keyof TCreateLoadForm)[]) {
    const [was, now] = [initial[k] ?? null, next[k] ?? null];
    const same =
      k === "pickupDate" || k === "deliveryDate" ? minute(was as string) === minute(now as string) : was === now;
    if (!same) (patch as Record<string, unknown>)[k] = next[k];
  }
  return patch;
};
