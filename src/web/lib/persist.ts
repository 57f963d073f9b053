// The last answers the signed-in user saw, kept in local storage, so that a page reloaded without a connection opens
// on them (who is signed in, the dashboard, the board) instead of the sign-in screen and the browser's error page.
// Cleared on sign-out and whenever the server says nobody is signed in, so one user's data never shows for another.
import { dehydrate, hydrate, type QueryClient } from "@tanstack/react-query";

const KEY = "mytess.queryCache";
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const SAVE_EVERY_MS = 1000;

type TSaved = { savedAt: number; state: ReturnType<typeof dehydrate> };

export const clearPersistedQueries = () => localStorage.removeItem(KEY);

/** Puts the saved answers back (before the first render), then keeps saving successful ones, at most once a second. */
export const persistQueries = (client: QueryClient) => {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null") as TSaved | null;
    if (saved && Date.now() - saved.savedAt < MAX_AGE_MS) {
      hydrate(client, saved.state);
      // Saved answers stand in only until fresh ones come: every screen asks again when it is online.
      void client.invalidateQueries({ refetchType: "none" });
    } else clearPersistedQueries();
  } catch {
    clearPersistedQueries();
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const state = dehydrate(client, { shouldDehydrateQuery: (q) => q.state.status === "success" });
    // Nobody signed in: nothing personal to keep.
    const me = state.queries.find((q) => JSON.stringify(q.queryKey).includes('"auth","me"'));
    if (!me?.state.data) return clearPersistedQueries();
    try {
      localStorage.setItem(KEY, JSON.stringify({ savedAt: Date.now(), state } satisfies TSaved));
    } catch {
      // Storage full: the app works without it.
    }
  };
  client.getQueryCache().subscribe((event) => {
    if (event.type === "updated" && event.action.type === "success" && !timer) timer = setTimeout(save, SAVE_EVERY_MS);
  });
};
