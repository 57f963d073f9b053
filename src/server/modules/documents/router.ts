import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZDocumentsListAnswer } from "../../../shared/schemas/answers/documents";
import { ZDocumentUploadInput } from "../../../shared/schemas/documents";
import { AppError } from "../../errors";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { documentsOf, openDocument, uploadDocument } from "./documents";

const id = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int()
    .positive(`${field} must be a positive integer`);

/** A load's files (bill of lading, proof of delivery, photos), for its shipper and assigned driver. */
export const documentsRouter = {
  list: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/documents", {
        summary: "A load's documents (both parties)",
        tags: ["Documents"],
        scope: "loads:read",
        params: { id: "loadId" },
      }),
    )
    .input(z.object({ loadId: id("loadId") }))
    .output(ZDocumentsListAnswer)
    .query(({ ctx, input }) => documentsOf(ctx.db, ctx.actor, input.loadId)),
  /** Multipart: served by its explicit route in http/app.ts. */
  upload: authedProcedure
    .input(ZDocumentUploadInput)
    .mutation(({ ctx, input }) => uploadDocument(ctx.db, ctx.services.storage, ctx.actor, input)),
  /** The file itself as a stream: served by its explicit route in http/app.ts, not over tRPC's JSON. */
  open: authedProcedure.input(z.object({ documentId: id("documentId") })).query(({ ctx, input }) => {
    if (ctx.channel !== "rest")
      throw new AppError(
        "NOT_FOUND",
        /*i18n*/ { id: "error.document.restOnly", message: "Files are served at /api/documents/{id}", values: input },
      );
    return openDocument(ctx.db, ctx.services.storage, ctx.actor, input.documentId);
  }),
} satisfies TRPCRouterRecord;
