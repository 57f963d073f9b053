import type { TDb } from "../../../db/client";
import type { User } from "../../../db/tables";
import type { TBoardServices } from "../integrations/boards/services";
import { logger } from "../logger";
import { finishConnect } from "../modules/boards/connect";

/**
 * GET /api/marketplaces/123loadboard/callback: 123Loadboard sends the user's browser back here with a code and our
 * state (or an error). The connection is finished for the signed-in user only, and the browser goes back to the
 * Marketplaces page, which says how it went (`connect` = connected, denied or failed; `board` = the configuration).
 */
export const boardConnectCallback =
  (db: TDb, boards: TBoardServices) =>
  async (request: Request, actor: User | null): Promise<Response> => {
    const q = new URL(request.url).searchParams;
    let target = "/marketplaces?connect=failed";
    if (actor) {
      try {
        const r = await finishConnect(db, boards, actor.id, {
          state: q.get("state"),
          code: q.get("code"),
          error: q.get("error"),
        });
        target = `/marketplaces?${new URLSearchParams({
          connect: r.outcome,
          ...(r.configId ? { board: String(r.configId) } : {}),
        })}`;
      } catch (err) {
        logger.error("board connect callback failed", { error: String(err) });
      }
    }
    return new Response(null, {
      status: 302,
      // The code and state stay out of the next page's address and of any Referer.
      headers: { Location: target, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    });
  };
