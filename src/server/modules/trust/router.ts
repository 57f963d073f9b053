import type { TRPCRouterRecord } from "@trpc/server";
import { ZCompanyProfile } from "../../../shared/schemas/answers/trust";
import { ZCompanyProfileInput } from "../../../shared/schemas/trust";
import { publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { companyProfile } from "./trust";

/** Trust signals that have a page of their own: a company's public profile. */
export const trustRouter = {
  company: publicProcedure
    .meta(
      rest("GET", "/api/companies/:id", {
        summary: "A company's public profile: name, kind, Verified badge, rating, trips and loads, members, since",
        tags: ["Companies"],
        scope: "public",
        params: { id: "id" },
      }),
    )
    .input(ZCompanyProfileInput)
    .output(ZCompanyProfile)
    .query(({ ctx, input }) => companyProfile(ctx.db, input.id)),
} satisfies TRPCRouterRecord;
