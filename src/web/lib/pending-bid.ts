// A bid a visitor made on the landing page before having an account: kept on this device only (never sent before
// sign-in) and placed right after the account exists.
const KEY = "mytess.pendingBid";
/** A bid kept longer than this is stale: the load has most likely moved on. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type TPendingBid = {
  loadId: number;
  loadTitle: string;
  amount: number;
  currency: string;
  proposedPickupDate: string | null;
  notes: string | null;
  /** Where the load is picked up and on what truck, to suggest similar loads if it was taken meanwhile. */
  pickup: { latitude: number; longitude: number };
  equipmentType: string;
  savedAt: number;
};

export const savePendingBid = (bid: Omit<TPendingBid, "savedAt">) =>
  localStorage.setItem(KEY, JSON.stringify({ ...bid, savedAt: Date.now() } satisfies TPendingBid));

export const readPendingBid = (): TPendingBid | null => {
  try {
    const bid = JSON.parse(localStorage.getItem(KEY) ?? "null") as TPendingBid | null;
    if (!bid || typeof bid.loadId !== "number" || Date.now() - bid.savedAt > MAX_AGE_MS) return null;
    return bid;
  } catch {
    return null;
  }
};

export const clearPendingBid = () => localStorage.removeItem(KEY);
