import type { TRPCRouterRecord } from "@trpc/server";
import { ZRegisterInput } from "../../../shared/schemas/auth";
import { registerUser } from "../../domain/auth/auth";
import { toPublicUser } from "../../domain/users/public-user";
import { listUsers } from "../../domain/users/users";
import { systemProcedure } from "../../trpc/init";

/** Operator procedures: reachable from the CLI (system context), never from a web request. */
export const adminRouter = {
  createUser: systemProcedure
    .input(ZRegisterInput)
    .mutation(async ({ ctx, input }) => toPublicUser(await registerUser(ctx.db, input))),

  listUsers: systemProcedure.query(({ ctx }) => listUsers(ctx.db).map(toPublicUser)),
} satisfies TRPCRouterRecord;
