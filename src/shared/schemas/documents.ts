import { z } from "zod";
import { zText } from "./text";

export const DOCUMENT_TYPES = ["bol", "pod", "photo", "other"] as const;
export type TDocumentType = (typeof DOCUMENT_TYPES)[number];

/** The largest file a load document may be. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Photos are stored at most this many pixels on their longer side. */
export const MAX_PHOTO_PIXELS = 2000;

const id = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .positive(`${field} must be a positive integer`);

export const ZDocumentUploadInput = z.object({
  loadId: id("loadId"),
  type: z.enum(DOCUMENT_TYPES, { error: `type must be one of ${DOCUMENT_TYPES.join(", ")}` }),
  file: z.object(
    {
      name: zText({ error: "file must have a name" }).max(200, "file name must be at most 200 characters"),
      type: zText({ error: "file must have a type" }).max(200, "file type must be at most 200 characters"),
      data: z
        .instanceof(Uint8Array, { error: "file is required" })
        .refine((d) => d.byteLength > 0, "file is empty")
        .refine((d) => d.byteLength <= MAX_DOCUMENT_BYTES, "file must be at most 10 MB"),
    },
    { error: "file is required" },
  ),
  // The upload's Idempotency-Key (the REST route passes the header): the same key again returns the same document.
  clientKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,128}$/, 'Idempotency-Key must be 8 to 128 letters, digits, "-" or "_"')
    .optional(),
});
export type TDocumentUploadInput = z.infer<typeof ZDocumentUploadInput>;

export const ZDeliveryInput = z.object({
  loadId: id("loadId"),
  receiverName: zText({ error: "receiverName is required" })
    .trim()
    .min(1, "receiverName is required")
    .max(120, "receiverName must be at most 120 characters"),
  documentIds: z
    .array(id("documentIds"), { error: "documentIds must be a list of document ids" })
    .min(1, "documentIds needs at least one photo or signature")
    .max(20, "documentIds must list at most 20 documents"),
});
export type TDeliveryInput = z.infer<typeof ZDeliveryInput>;

export type TLoadDocument = {
  id: number;
  loadId: number;
  type: TDocumentType;
  fileName: string;
  contentType: string;
  size: number;
  uploadedBy: number | null;
  createdAt: string;
  url: string;
};
