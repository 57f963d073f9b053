import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZMyVerificationAnswer,
  ZVerificationFile,
  ZVerificationListAnswer,
  ZVerificationSubmission,
} from "../../../shared/schemas/answers/verification";
import {
  ZVerificationFileUploadInput,
  ZVerificationId,
  ZVerificationListInput,
  ZVerificationRejectInput,
  ZVerificationSubmitInput,
} from "../../../shared/schemas/verification";
import { AppError } from "../../errors";
import { authedProcedure, publicProcedure, SIGN_IN_REQUIRED, userOrSystemProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { operatorOnly } from "../admin/middleware";
import { isOperator } from "../admin/operators";
import { approveSubmission, rejectSubmission } from "./review";
import {
  listSubmissions,
  myVerification,
  openVerificationFile,
  submitVerification,
  uploadVerificationFile,
} from "./verification";

// Operators' routes check who is asking in two steps: signed in (401), then the input (400), then operator (404 for
// everyone else): a caller learns nothing from the 400 the published API document does not already say.
const operatorProcedure = userOrSystemProcedure;

/** Verification: the owner's submissions and files; the operators' review queue and decisions. */
export const verificationRouter = {
  mine: authedProcedure
    .meta(
      rest("GET", "/api/verification", {
        summary: "Your verification: the newest submission and the Verified badge",
        tags: ["Verification"],
        scope: "account:read",
      }),
    )
    .output(ZMyVerificationAnswer)
    .query(({ ctx }) => myVerification(ctx.db, ctx.actor)),

  submit: authedProcedure
    .meta(
      rest("POST", "/api/verification", {
        summary: "Submit your business's numbers and uploaded files for verification",
        tags: ["Verification"],
        scope: "account:write",
        status: 201,
      }),
    )
    .input(ZVerificationSubmitInput)
    .output(ZVerificationSubmission)
    .mutation(({ ctx, input }) => submitVerification(ctx.db, ctx.actor, input)),

  /** Multipart: served by its explicit route in http/app.ts. */
  upload: authedProcedure
    .input(ZVerificationFileUploadInput)
    .output(ZVerificationFile)
    .mutation(({ ctx, input }) => uploadVerificationFile(ctx.db, ctx.services.storage, ctx.actor, input)),

  /** The file itself as a stream: served by its explicit route in http/app.ts, for its owner and operators. */
  open: publicProcedure.input(ZVerificationId).query(async ({ ctx, input }) => {
    if (ctx.channel !== "rest" && !ctx.system)
      throw new AppError(
        "NOT_FOUND",
        /*i18n*/ {
          id: "error.verification.restOnly",
          message: "Files are served at /api/verification/files/{id}",
          values: input,
        },
      );
    if (!ctx.actor && !ctx.system) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
    return openVerificationFile(ctx.db, ctx.services.storage, ctx.actor, input.id);
  }),

  list: operatorProcedure
    .meta(
      rest("GET", "/api/verification/submissions", {
        summary: "Operators: submissions in one state (pending by default), oldest first",
        tags: ["Verification"],
        scope: "session",
      }),
    )
    .input(ZVerificationListInput)
    .use(operatorOnly)
    .output(ZVerificationListAnswer)
    .query(({ ctx, input }) => listSubmissions(ctx.db, input.status)),

  approve: operatorProcedure
    .meta(
      rest("POST", "/api/verification/submissions/:id/approve", {
        summary: "Operators: approve a pending submission",
        tags: ["Verification"],
        scope: "session",
        params: { id: "id" },
      }),
    )
    .input(ZVerificationId)
    .use(operatorOnly)
    .output(ZVerificationSubmission)
    .mutation(({ ctx, input }) => approveSubmission(ctx.db, ctx.actor, input.id)),

  reject: operatorProcedure
    .meta(
      rest("POST", "/api/verification/submissions/:id/reject", {
        summary: "Operators: reject a pending submission, with the reason its owner is told",
        tags: ["Verification"],
        scope: "session",
        params: { id: "id" },
      }),
    )
    .input(ZVerificationRejectInput)
    .use(operatorOnly)
    .output(ZVerificationSubmission)
    .mutation(({ ctx, input }) => rejectSubmission(ctx.db, ctx.actor, input.id, input.reason)),

  /** Whether the signed-in account may use the operators' pages (the web app shows their link). */
  operator: authedProcedure
    .output(z.object({ operator: z.boolean() }))
    .query(async ({ ctx }) => ({ operator: await isOperator(ctx.db, ctx.actor.id) })),
} satisfies TRPCRouterRecord;
