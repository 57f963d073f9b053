import type { TRPCRouterRecord } from "@trpc/server";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { ecommerceIntegrations, users } from "../../../../db/tables";
import { ZStoreIntegration, ZSuccessAnswer } from "../../../shared/schemas/answers/common";
import {
  ZStoresConvertAnswer,
  ZStoresIntegrationsAnswer,
  ZStoresOrderDraftAnswer,
  ZStoresOrdersAnswer,
  ZStoresSyncIntegrationAnswer,
  ZStoresTestIntegrationAnswer,
} from "../../../shared/schemas/answers/stores";
import { ZCreateLoadInput } from "../../../shared/schemas/loads";
import { ZCreateIntegrationInput, ZOrderListInput, ZUpdateIntegrationInput } from "../../../shared/schemas/stores";
import { translate } from "../../i18n";
import { authedProcedure, systemProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { premium } from "../billing/middleware";
import { convertOrder, orderDraft } from "./convert";
import {
  createIntegration,
  deleteIntegration,
  listIntegrations,
  testIntegration,
  toPublicIntegration,
  updateIntegration,
} from "./integrations";
import { listOrders } from "./orders";
import { runStoreSync, syncIntegration } from "./sync";

const ZId = z.object({
  id: z.number({ error: "id must be a number" }).int().positive("id must be a positive integer"),
});

/** The e-commerce calls: a user's own integrations and orders only (others get 404). */
export const storesRouter = {
  integrations: authedProcedure
    .meta(
      rest("GET", "/api/ecommerce/integrations", {
        summary: "Connected stores",
        tags: ["Stores"],
        scope: "stores:read",
      }),
    )
    .output(ZStoresIntegrationsAnswer)
    .query(async ({ ctx }) => (await listIntegrations(ctx.db, ctx.actor.id)).map(toPublicIntegration)),
  createIntegration: authedProcedure
    .meta(
      rest("POST", "/api/ecommerce/integrations", {
        summary: "Connect a store",
        tags: ["Stores"],
        scope: "stores:write",
        status: 201,
      }),
    )
    .use(premium)
    .input(ZCreateIntegrationInput)
    .output(ZStoreIntegration)
    .mutation(async ({ ctx, input }) =>
      toPublicIntegration(await createIntegration(ctx.db, ctx.services.stores, ctx.actor, input)),
    ),
  updateIntegration: authedProcedure
    .meta(
      rest("PUT", "/api/ecommerce/integrations/:id", {
        summary: "Change a store connection",
        tags: ["Stores"],
        scope: "stores:write",
      }),
    )
    .input(ZId.extend(ZUpdateIntegrationInput.shape))
    .output(ZStoreIntegration)
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toPublicIntegration(await updateIntegration(ctx.db, ctx.services.stores, ctx.actor, id, changes)),
    ),
  deleteIntegration: authedProcedure
    .meta(
      rest("DELETE", "/api/ecommerce/integrations/:id", {
        summary: "Remove a store connection",
        tags: ["Stores"],
        scope: "stores:write",
      }),
    )
    .input(ZId)
    .output(ZSuccessAnswer)
    .mutation(({ ctx, input }) => deleteIntegration(ctx.db, ctx.actor, input.id)),
  testIntegration: authedProcedure
    .meta(
      rest("POST", "/api/ecommerce/integrations/:id/test", {
        summary: "Test a store connection",
        tags: ["Stores"],
        scope: "stores:write",
      }),
    )
    .input(ZId)
    .output(ZStoresTestIntegrationAnswer)
    .mutation(({ ctx, input }) => testIntegration(ctx.db, ctx.services.stores, ctx.actor, input.id)),
  syncIntegration: authedProcedure
    .meta(
      rest("POST", "/api/ecommerce/integrations/:id/sync", {
        summary: "Sync a store's orders now",
        tags: ["Stores"],
        scope: "stores:write",
      }),
    )
    .input(ZId)
    .output(ZStoresSyncIntegrationAnswer)
    .mutation(async ({ ctx, input }) => {
      const r = await syncIntegration(ctx.db, ctx.services.stores, ctx.actor, input.id);
      const values = { created: r.created, updated: r.updated };
      return {
        ...r,
        // The web app's Sync Successful toast shows this message, in the caller's language.
        message: r.partial
          ? translate(
              ctx.locale,
              /*i18n*/ {
                id: "ecommerce.syncedPartly",
                message:
                  "{created} new orders, {updated} updated; the store is limiting requests, the rest comes with the next sync",
                values,
              },
            )
          : translate(
              ctx.locale,
              /*i18n*/ {
                id: "ecommerce.synced",
                comment: "Store sync summary shown after Sync Orders: orders new and updated",
                message: "{created} new orders, {updated} updated",
                values,
              },
            ),
      };
    }),
  orders: authedProcedure
    .meta(rest("GET", "/api/ecommerce/orders", { summary: "Store orders", tags: ["Stores"], scope: "stores:read" }))
    .input(ZOrderListInput)
    .output(ZStoresOrdersAnswer)
    .query(({ ctx, input }) => listOrders(ctx.db, ctx.actor, input)),
  /** The load an order would become, for the Post New Load dialog when its city cannot be placed. */
  orderDraft: authedProcedure
    .meta(
      rest("GET", "/api/ecommerce/orders/:id/draft", {
        summary: "The load an order would become",
        tags: ["Stores"],
        scope: "stores:read",
      }),
    )
    .input(ZId)
    .output(ZStoresOrderDraftAnswer)
    .query(({ ctx, input }) => orderDraft(ctx.db, ctx.actor, input.id)),
  convert: authedProcedure
    .meta(
      rest("POST", "/api/ecommerce/orders/:id/convert", {
        summary: "Post an order as a load",
        tags: ["Stores"],
        scope: "stores:write",
      }),
    )
    .use(premium)
    .input(
      ZId.extend({
        load: ZCreateLoadInput.optional(),
        /** The shipper knows no road joins the load's countries and posts it as a truck load all the same. */
        confirmOceanCrossing: z.boolean({ error: "confirmOceanCrossing must be true or false" }).optional(),
      }),
    )
    .output(ZStoresConvertAnswer)
    .mutation(({ ctx, input }) =>
      convertOrder(ctx.db, ctx.actor, input.id, input.load, Date.now(), input.confirmOceanCrossing ?? false),
    ),
  /** Demo mode: the store emulators' addresses (credentials "sandbox"); else null. */
  sandbox: authedProcedure.query(({ ctx }) => ctx.services.stores.sandboxUrls),

  /** Operator view (CLI): every integration with its owner; credentials as set / not set only. */
  all: systemProcedure.query(async ({ ctx }) =>
    (
      await ctx.db
        .select({ i: ecommerceIntegrations, email: users.email })
        .from(ecommerceIntegrations)
        .innerJoin(users, eq(users.id, ecommerceIntegrations.userId))
        .orderBy(desc(ecommerceIntegrations.id))
    ).map(({ i, email }) => ({ ...toPublicIntegration(i), owner: email })),
  ),
  /** Operator: sync one integration now, in this process. */
  syncNow: systemProcedure
    .input(z.object({ integrationId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => runStoreSync(ctx.db, ctx.services.stores, input.integrationId)),
} satisfies TRPCRouterRecord;
