// The load board's first page as the web app asks for it: the route's loader and the server, which gives its answer
// with the page's HTML to a signed-in driver (http/static.ts), build the same input, so the app finds it cached.

/** Loads per page on the web app's board. */
export const BOARD_PAGE_SIZE = 20;
/** The board's radius before the user changes it (miles). */
export const BOARD_DEFAULT_RADIUS = 50;

/** The first page's search input: around the saved position when there is one, nearest first. */
export const firstBoardPage = (origin: { latitude: number; longitude: number } | null) => ({
  radius: BOARD_DEFAULT_RADIUS,
  sourceType: "all" as const,
  ...(origin ? { latitude: origin.latitude, longitude: origin.longitude } : {}),
  sort: "distance" as const,
  page: 1,
  pageSize: BOARD_PAGE_SIZE,
});

/** The board's figures for the same search (no paging or order). */
export const boardStatsInput = ({ page: _p, pageSize: _s, sort: _o, ...rest }: ReturnType<typeof firstBoardPage>) =>
  rest;
