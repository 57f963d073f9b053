import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZDeleteAccountInput } from "../../../shared/schemas/account-data";
import { ZAccountExport } from "../../../shared/schemas/answers/account-data";
import { ZAccepted } from "../../../shared/schemas/auth";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { clearedSessionCookie } from "../accounts/sessions";
import { deleteAccount, requestDeletionCode } from "./deletion";
import { exportAccount, exportFileName, reserveExport } from "./export";

/**
 * The owner's copy of their data, and deleting the account. Browser sessions only (`session` scope): an API token,
 * which may sit in a script on someone's server, can neither download everything nor end the account.
 */
export const accountDataRouter = {
  /** Everything the account holds, as a JSON file (REST: an attachment named mytess-export-<date>.json). */
  export: authedProcedure
    .meta(
      rest("GET", "/api/user/export", {
        summary: "Download the account's data (JSON)",
        tags: ["Account"],
        scope: "session",
      }),
    )
    .output(ZAccountExport)
    .query(async ({ ctx }) => {
      const now = Date.now();
      await reserveExport(ctx.db, ctx.actor.id, now);
      const file = await exportAccount(ctx.db, ctx.actor, now);
      ctx.http?.resHeaders.set("Content-Disposition", `attachment; filename="${exportFileName(now)}"`);
      return file;
    }),

  /** Sends a code to the account's own number (REST: 202), for an account that confirms its deletion by SMS. */
  deletionCode: authedProcedure
    .meta(
      rest("POST", "/api/user/delete-code", {
        summary: "Send a code by SMS to confirm deleting the account",
        tags: ["Account"],
        scope: "session",
        status: 202,
      }),
    )
    .output(ZAccepted)
    .mutation(async ({ ctx }) => {
      await requestDeletionCode(ctx.db, ctx.actor);
      return { ok: true as const };
    }),

  /** Deletes the account (with its password or the SMS code), or answers 409 with what must finish first. */
  delete: authedProcedure
    .meta(rest("DELETE", "/api/user", { summary: "Delete the account", tags: ["Account"], scope: "session" }))
    .input(ZDeleteAccountInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const answer = await deleteAccount(
        ctx.db,
        { secrets: ctx.services.secrets, storage: ctx.services.storage },
        ctx.actor,
        input,
        ctx.http?.ip ?? "local",
      );
      ctx.services.log.info("account deleted", { userId: ctx.actor.id });
      if (ctx.http) ctx.http.resHeaders.append("Set-Cookie", clearedSessionCookie(ctx.http.secure));
      return answer;
    }),
} satisfies TRPCRouterRecord;
