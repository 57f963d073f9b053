// Files waiting to be sent to a load's documents, alone (a bill of lading, a photo added from the trip panel) or as a
// proof of delivery (the photos or signature, then the delivery itself). A driver at a warehouse gate often has no
// signal, and a photo is too big for the offline queue's local storage, so an upload is kept in IndexedDB the moment
// it is confirmed, and sent from there: each file uploaded (its document id written back as soon as the server
// answers, so a file is uploaded once), then, for a proof, the delivery recorded with an Idempotency-Key fixed when the
// proof was kept, so a delivery whose answer was lost is not recorded twice. An upload is taken out of the store only
// when the server has everything, or when it refuses it (kept then in the list of refusals with the server's reason).
// Sent on confirm, on the `online` event and at start, oldest first; one sender at a time across tabs.
import { useSyncExternalStore } from "react";
import type { TDocumentType } from "../../shared/schemas/documents";
import { newIdempotencyKey } from "./offline-queue";
import { watchedFetch } from "./online";

export type TUploadFile = {
  key: string;
  blob: Blob;
  name: string;
  /** For a proof of delivery: a photo of the goods or papers, or the receiver's signature drawn on the screen (a POD). */
  type: TDocumentType;
  /** Set once the server has the file. */
  documentId?: number;
};

export type TPendingUpload = {
  /** Also the delivery's Idempotency-Key, for a proof of delivery. */
  id: string;
  loadId: number;
  /** Set on a proof of delivery: once its files are up, the delivery to this receiver is recorded. */
  receiverName?: string;
  files: TUploadFile[];
  createdAt: number;
  /** The server's reason, when it refused the proof; such a proof is no longer sent. */
  refused?: string;
};

// The store's first name, kept: proofs of delivery already waiting on a phone are still sent.
const DB_NAME = "mytess-pod";
const STORE = "pods";

let dbPromise: Promise<IDBDatabase> | null = null;
const openDb = () => {
  dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return dbPromise;
};

const run = async <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>) => {
  const db = await openDb();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = op(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
};

let uploads: TPendingUpload[] = [];
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("mytess-pod") : null;

const refresh = async () => {
  uploads = ((await run("readonly", (s) => s.getAll())) as TPendingUpload[]).sort((a, b) => a.createdAt - b.createdAt);
  for (const l of listeners) l();
};
const changed = async () => {
  await refresh();
  channel?.postMessage("changed");
};
if (channel) channel.onmessage = () => void refresh();
if (typeof indexedDB !== "undefined") void refresh().catch(() => {});

const put = async (upload: TPendingUpload) => {
  await run("readwrite", (s) => s.put(upload));
  await changed();
};
const remove = async (id: string) => {
  await run("readwrite", (s) => s.delete(id));
  await changed();
};

/** The uploads waiting (and refused), as this tab last read them. */
export const usePendingUploads = () =>
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => uploads,
    () => uploads,
  );

/**
 * Keeps files for sending to the load's documents (with `receiverName`, a proof of delivery: the delivery is recorded
 * once they are up); resolves once they are safely stored on the device.
 */
export const keepUpload = async (
  loadId: number,
  files: Omit<TUploadFile, "key">[],
  delivery?: { receiverName: string },
) => {
  const upload: TPendingUpload = {
    id: newIdempotencyKey(),
    loadId,
    ...(delivery ? { receiverName: delivery.receiverName } : {}),
    files: files.map((f) => ({ ...f, key: crypto.randomUUID() })),
    createdAt: Date.now(),
  };
  await put(upload);
  return upload;
};

export const dismissUpload = (id: string) => remove(id);

/** Whether this upload still waits on the phone (neither taken by the server nor refused). */
export const uploadWaiting = (id: string) => uploads.some((p) => p.id === id && !p.refused);

/** A proof of delivery (the upload records the delivery), not files added alone. */
export const isProof = (p: TPendingUpload) => p.receiverName !== undefined;

/** No answer at all: the proof waits for the network. */
class NoNetwork extends Error {}
/** The server cannot take it now (signed out, failing, busy): the proof waits too. */
class NotNow extends Error {}
/** The server refused it, with its reason. */
class Refused extends Error {}

const reasonOf = (status: number, text: string) => {
  try {
    const body = JSON.parse(text) as { message?: string; error?: { message?: string } };
    return body.message ?? body.error?.message ?? `HTTP ${status}`;
  } catch {
    return `HTTP ${status}`;
  }
};

const classify = (status: number, text: string) => {
  if (status === 401 || status === 429 || status >= 500) return new NotNow(reasonOf(status, text));
  return new Refused(reasonOf(status, text));
};

/** One file to the load's documents, with the upload's progress (0 to 1). */
const uploadFile = (loadId: number, key: string, file: TUploadFile, onProgress: (fraction: number) => void) =>
  new Promise<number>((resolve, reject) => {
    const form = new FormData();
    form.append("type", file.type);
    form.append("file", file.blob, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/loads/${loadId}/documents`);
    xhr.withCredentials = true;
    // The same key on every try: a photo whose answer was lost is not stored twice.
    xhr.setRequestHeader("Idempotency-Key", key);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) {
        onProgress(1);
        resolve((JSON.parse(xhr.responseText) as { id: number }).id);
      } else reject(classify(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new NoNetwork());
    xhr.ontimeout = () => reject(new NoNetwork());
    xhr.send(form);
  });

export type TUploadProgress = { uploadId: string; fileKey: string; fraction: number };
const progressListeners = new Set<(p: TUploadProgress) => void>();
/** Follows every file being sent (the progress bars of the dialog, the trip card and the documents list). */
export const onUploadProgress = (cb: (p: TUploadProgress) => void) => {
  progressListeners.add(cb);
  return () => {
    progressListeners.delete(cb);
  };
};

const sendOne = async (entry: TPendingUpload) => {
  for (const file of entry.files) {
    if (file.documentId) continue;
    const documentId = await uploadFile(entry.loadId, `${entry.id}-${file.key}`, file, (fraction) => {
      for (const l of progressListeners) l({ uploadId: entry.id, fileKey: file.key, fraction });
    });
    file.documentId = documentId;
    await put(entry);
  }
  if (!isProof(entry)) {
    await remove(entry.id);
    return;
  }
  let res: Response;
  try {
    res = await watchedFetch("/trpc/loads.deliverWithProof", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", "Idempotency-Key": entry.id },
      body: JSON.stringify({
        loadId: entry.loadId,
        receiverName: entry.receiverName,
        documentIds: entry.files.map((f) => f.documentId),
      }),
    });
  } catch {
    throw new NoNetwork();
  }
  if (!res.ok) throw classify(res.status, await res.text());
  await remove(entry.id);
};

export type TUploadSendResult = { sent: number; refused: TPendingUpload[]; waiting: number };

const sendAll = async (): Promise<TUploadSendResult> => {
  await refresh();
  let sent = 0;
  const refused: TPendingUpload[] = [];
  for (const entry of uploads.filter((p) => !p.refused)) {
    try {
      await sendOne(entry);
      sent++;
    } catch (err) {
      if (err instanceof Refused) {
        const r = { ...entry, refused: err.message };
        await put(r);
        refused.push(r);
        continue;
      }
      break; // no network, or not now: the rest waits, in order
    }
  }
  return { sent, refused, waiting: uploads.filter((p) => !p.refused).length };
};

let running: Promise<TUploadSendResult> | null = null;
let again: Promise<TUploadSendResult> | null = null;
/**
 * Sends the uploads waiting; one sender at a time across tabs (Web Locks), so no file goes twice. Asked while a send
 * runs, it runs once more after it, for an upload kept meanwhile.
 */
export const sendPendingUploads = (): Promise<TUploadSendResult> => {
  if (running) {
    again ??= running.then(() => {
      again = null;
      return sendPendingUploads();
    });
    return again;
  }
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  const current: Promise<TUploadSendResult> = (
    locks
      ? new Promise<TUploadSendResult>((resolve, reject) => {
          locks.request("mytess-pod", () => sendAll().then(resolve, reject)).catch(reject);
        })
      : sendAll()
  ).finally(() => {
    running = null;
  });
  running = current;
  return current;
};
