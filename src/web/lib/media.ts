import { useSyncExternalStore } from "react";

/** Tailwind's `lg` breakpoint: from here on lists are dense tables, below it cards. */
export const DESKTOP_QUERY = "(min-width: 1024px)";

/**
 * Whether a media query matches now, following changes (a window resized, a tablet turned). Used where the two sides
 * render different components, so only one of them is built (hiding the other with CSS would build both).
 */
export const useMediaQuery = (query: string) =>
  useSyncExternalStore(
    (cb) => {
      const m = window.matchMedia(query);
      m.addEventListener("change", cb);
      return () => m.removeEventListener("change", cb);
    },
    () => window.matchMedia(query).matches,
  );

export const useDesktop = () => useMediaQuery(DESKTOP_QUERY);
