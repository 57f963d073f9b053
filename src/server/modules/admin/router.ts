import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { Job } from "../../../../db/tables";
import { ZRegisterInput } from "../../../shared/schemas/auth";
import { zText } from "../../../shared/schemas/text";
import { JOB_STATUSES, listJobs, retryJob } from "../../jobs/queue";
import { systemProcedure } from "../../trpc/init";
import { registerUser } from "../accounts/auth";
import { toPublicUser } from "../accounts/public-user";
import { listUsers } from "../accounts/users";
import { broadcast } from "../notifications/notify";
import { setOperator } from "./operators";

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
const toPublicJob = (j: Job) => ({
  id: j.id,
  kind: j.kind,
  status: j.status,
  attempts: j.attempts,
  maxAttempts: j.maxAttempts,
  runAt: iso(j.runAt),
  lastError: j.lastError,
  uniqueKey: j.uniqueKey,
  payload: j.payload,
  createdAt: iso(j.createdAt),
  finishedAt: iso(j.finishedAt),
});

/** Operator procedures: reachable from the CLI (system context), never from a web request. */
export const adminRouter = {
  createUser: systemProcedure
    .input(ZRegisterInput)
    .mutation(async ({ ctx, input }) => toPublicUser(await registerUser(ctx.db, input))),

  listUsers: systemProcedure.query(async ({ ctx }) => (await listUsers(ctx.db)).map(toPublicUser)),

  /** Background jobs, newest first; `status: "dead"` lists the ones that used all their attempts. */
  listJobs: systemProcedure
    .input(
      z
        .object({
          status: z.enum(JOB_STATUSES, { error: `status must be one of ${JOB_STATUSES.join(", ")}` }).optional(),
          limit: z.number().int().min(1).max(1000).default(100),
        })
        .default({ limit: 100 }),
    )
    .query(async ({ ctx, input }) => (await listJobs(ctx.db, input)).map(toPublicJob)),

  /** A system alert or announcement to every user, or every driver or shipper, on the bell and their channels. */
  broadcast: systemProcedure
    .input(
      z.object({
        type: z.enum(["systemAlerts", "marketing"], { error: "type must be systemAlerts or marketing" }),
        title: zText().trim().min(1, "title is required").max(120, "title must be at most 120 characters"),
        message: zText().trim().min(1, "message is required").max(1000, "message must be at most 1000 characters"),
        role: z.enum(["driver", "shipper"], { error: "role must be driver or shipper" }).optional(),
      }),
    )
    .mutation(({ ctx, input }) => broadcast(ctx.db, input)),

  /** Makes an account an operator on the web (the verification review page), or no longer one. */
  setOperator: systemProcedure
    .input(
      z.object({
        email: zText({ error: "email is required" }).trim().min(1, "email is required").max(254),
        operator: z.boolean({ error: "operator must be true or false" }),
      }),
    )
    .mutation(({ ctx, input }) => setOperator(ctx.db, input.email, input.operator)),

  retryJob: systemProcedure
    .input(z.object({ id: z.number({ error: "id must be a job number" }).int().positive("id must be a job number") }))
    .mutation(async ({ ctx, input }) => toPublicJob(await retryJob(ctx.db, input.id))),
} satisfies TRPCRouterRecord;
