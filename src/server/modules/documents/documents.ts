import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type Load, type LoadDocument, loadDocuments, loads, type User } from "../../../../db/tables";
import type { TDocumentUploadInput, TLoadDocument } from "../../../shared/schemas/documents";
import { AppError } from "../../errors";
import type { TStorage } from "../../storage/storage";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { prepareFile } from "./files";

const DOCUMENT_NOT_FOUND = /*i18n*/ { id: "error.document.notFound", message: "Document not found" };

const EXTENSION: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
};

/** The load, for its shipper or assigned driver; anyone else gets the answer a missing load gets. */
export const loadForParty = async (db: TDb, actor: User, loadId: number): Promise<Load> => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  if (!load || (load.shipperId !== actor.id && load.assignedDriverId !== actor.id))
    throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  return load;
};

export const toPublicDocument = (d: LoadDocument): TLoadDocument => ({
  id: d.id,
  loadId: d.loadId,
  type: d.type,
  fileName: d.fileName,
  contentType: d.contentType,
  size: d.size,
  uploadedBy: d.uploaderId,
  createdAt: new Date(d.createdAt).toISOString(),
  url: `/api/documents/${d.id}`,
});

/** A load's documents, oldest first, for its two parties. */
export const documentsOf = async (db: TDb, actor: User, loadId: number) => {
  await loadForParty(db, actor, loadId);
  const rows = await db
    .select()
    .from(loadDocuments)
    .where(eq(loadDocuments.loadId, loadId))
    .orderBy(asc(loadDocuments.id));
  return rows.map(toPublicDocument);
};

const KEY_REUSED = /*i18n*/ {
  id: "error.document.keyReused",
  message: "This Idempotency-Key was used for a file of another load",
};

/** The uploader's document sent earlier with this key: the same document again for the same load, 422 for another. */
const sentBefore = async (db: Pick<TDb, "select">, actor: User, loadId: number, clientKey: string) => {
  const [row] = await db
    .select()
    .from(loadDocuments)
    .where(and(eq(loadDocuments.uploaderId, actor.id), eq(loadDocuments.clientKey, clientKey)));
  if (row && row.loadId !== loadId)
    throw new AppError("UNPROCESSABLE_CONTENT", KEY_REUSED, {
      issues: [{ path: "Idempotency-Key", message: KEY_REUSED }],
    });
  return row;
};

/**
 * Stores a party's file for the load: checked and (for images) re-encoded first, written to storage, then recorded.
 * A record that cannot be written takes its file back out of storage, so nothing is left half-made. With a client
 * key (the phone's Idempotency-Key), a file sent again after a lost answer returns the document made the first time,
 * also when both copies arrive at once (the unique (uploader, key) index lets one in; the other's file is removed).
 */
export const uploadDocument = async (
  db: TDb,
  storage: TStorage,
  actor: User,
  input: TDocumentUploadInput,
  now = Date.now(),
) => {
  const load = await loadForParty(db, actor, input.loadId);
  if (input.clientKey) {
    const earlier = await sentBefore(db, actor, load.id, input.clientKey);
    if (earlier) return toPublicDocument(earlier);
  }
  const file = await prepareFile(input.type, input.file.type, input.file.data);
  const key = `loads/${load.id}/documents/${crypto.randomUUID()}.${EXTENSION[file.contentType]}`;
  const stored = await storage.put(key, file.data, file.contentType);
  const baseName = input.file.name.replace(/[\\/]/g, "_").replace(/\.[a-z0-9]{1,5}$/i, "") || input.type;
  try {
    const [row] = await db
      .insert(loadDocuments)
      .values({
        loadId: load.id,
        uploaderId: actor.id,
        type: input.type,
        fileName: `${baseName}.${EXTENSION[file.contentType]}`,
        contentType: file.contentType,
        size: stored.size,
        storageKey: key,
        clientKey: input.clientKey ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return toPublicDocument(row);
    // The same key won the race: this copy's file goes, the first one's document is the answer.
    await storage.delete(key).catch(() => {});
    const earlier = await sentBefore(db, actor, load.id, input.clientKey!);
    if (!earlier) throw new Error("an upload's key conflicted but its document is gone");
    return toPublicDocument(earlier);
  } catch (err) {
    await storage.delete(key).catch(() => {});
    throw err;
  }
};

/** A document's bytes as a stream, for the load's two parties only (404 for everyone else). */
export const openDocument = async (db: TDb, storage: TStorage, actor: User, documentId: number) => {
  const [doc] = await db.select().from(loadDocuments).where(eq(loadDocuments.id, documentId));
  const [load] = doc ? await db.select().from(loads).where(eq(loads.id, doc.loadId)) : [];
  if (!doc || !load || (load.shipperId !== actor.id && load.assignedDriverId !== actor.id))
    throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND);
  const object = await storage.stream(doc.storageKey);
  if (!object) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND);
  return { fileName: doc.fileName, contentType: doc.contentType, size: object.size, stream: object.stream };
};

/** Of these ids, the load's documents that prove a delivery: photos, and PODs (a signature drawn on the screen). */
export const proofDocuments = (db: Pick<TDb, "select">, loadId: number, ids: number[]) =>
  db
    .select()
    .from(loadDocuments)
    .where(
      and(
        eq(loadDocuments.loadId, loadId),
        inArray(loadDocuments.id, ids),
        inArray(loadDocuments.type, ["photo", "pod"]),
      ),
    );
