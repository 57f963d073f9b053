/** Runs `fn` when the browser has nothing better to do (after the first screen is drawn); returns a cancel. */
export const whenIdle = (fn: () => void) => {
  if (typeof window === "undefined") return () => undefined;
  if ("requestIdleCallback" in window) {
    const id = window.requestIdleCallback(fn, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 500);
  return () => clearTimeout(id);
};
