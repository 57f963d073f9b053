// The server's answers as the web app sees them, inferred from the router's type alone: the web app takes no type
// from the server's modules, so a module can change its internals without the web app knowing, and a change to what a
// procedure answers shows here.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/trpc/root";

export type TRouterOutputs = inferRouterOutputs<AppRouter>;
export type TRouterInputs = inferRouterInputs<AppRouter>;

/** The signed-in user as `auth.me` gives it. */
export type TPublicUser = NonNullable<TRouterOutputs["auth"]["me"]>;
/** A load as the API shows it (what posting one answers). */
export type TPublicLoad = TRouterOutputs["loads"]["create"];
/** The load board's answer: a page of loads, and how each external board answered. */
export type TBoardPage = TRouterOutputs["loads"]["search"];
/** A load of the board, with the external board it came from, if any. */
export type TBoardLoadItem = TBoardPage["items"][number];
/** How one external board answered the board's search. */
export type TBoardAnswer = TBoardPage["boards"][number];
/** A place of the gazetteer, as the place picker offers it. */
export type TPlace = TRouterOutputs["places"]["search"][number];
/** One line of the home page's activity feed. */
export type TActivityEvent = TRouterOutputs["dashboard"]["home"]["activity"][number];
