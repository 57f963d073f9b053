// Proofs of delivery waiting to be sent. A driver at a warehouse gate often has no signal, and a photo is too big for
// the offline queue's local storage, so a proof (the receiver's name and the photos or signature as blobs) is kept in
// IndexedDB the moment the driver confirms it, and sent from there: each file uploaded (its document id written back
// as soon as the server answers, so a file is uploaded once), then the delivery recorded with an Idempotency-Key
// fixed when the proof was kept, so a delivery whose answer was lost is not recorded twice. A proof is taken out of the
// store only when the server has recorded the delivery, or when it refuses it (kept then in the list of refusals with
// the server's reason). Sent on confirm, on the `online` event and at start; one sender at a time across tabs.
import { useSyncExternalStore } from "react";
import { newIdempotencyKey } from "./offline-queue";
import { watchedFetch } from "./online";

export type TPodFile = {
  key: string;
  blob: Blob;
  name: string;
  /** A photo of the goods or papers, or the receiver's signature drawn on the screen (a POD). */
  type: "photo" | "pod";
  /** Set once the server has the file. */
  documentId?: number;
};

export type TPendingPod = {
  /** Also the delivery's Idempotency-Key. */
  id: string;
  loadId: number;
  receiverName: string;
  files: TPodFile[];
  createdAt: number;
  /** The server's reason, when it refused the proof; such a proof is no longer sent. */
  refused?: string;
};

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

let pods: TPendingPod[] = [];
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("mytess-pod") : null;

const refresh = async () => {
  pods = ((await run("readonly", (s) => s.getAll())) as TPendingPod[]).sort((a, b) => a.createdAt - b.createdAt);
  for (const l of listeners) l();
};
const changed = async () => {
  await refresh();
  channel?.postMessage("changed");
};
if (channel) channel.onmessage = () => void refresh();
if (typeof indexedDB !== "undefined") void refresh().catch(() => {});

const put = async (pod: TPendingPod) => {
  await run("readwrite", (s) => s.put(pod));
  await changed();
};
const remove = async (id: string) => {
  await run("readwrite", (s) => s.delete(id));
  await changed();
};

/** The proofs waiting (and refused), as this tab last read them. */
export const usePendingPods = () =>
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => pods,
    () => pods,
  );

/** Keeps a proof for sending; resolves once it is safely stored on the device. */
export const keepPod = async (loadId: number, receiverName: string, files: Omit<TPodFile, "key">[]) => {
  const pod: TPendingPod = {
    id: newIdempotencyKey(),
    loadId,
    receiverName,
    files: files.map((f) => ({ ...f, key: crypto.randomUUID() })),
    createdAt: Date.now(),
  };
  await put(pod);
  return pod;
};

export const dismissPod = (id: string) => remove(id);

/** Whether this proof still waits on the phone (neither recorded by the server nor refused). */
export const podWaiting = (id: string) => pods.some((p) => p.id === id && !p.refused);

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
const upload = (loadId: number, key: string, file: TPodFile, onProgress: (fraction: number) => void) =>
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

export type TPodProgress = { podId: string; fileKey: string; fraction: number };
const progressListeners = new Set<(p: TPodProgress) => void>();
/** Follows the uploads of every proof being sent (the dialog's and the trip card's progress bars). */
export const onPodProgress = (cb: (p: TPodProgress) => void) => {
  progressListeners.add(cb);
  return () => {
    progressListeners.delete(cb);
  };
};

const sendOne = async (pod: TPendingPod) => {
  for (const file of pod.files) {
    if (file.documentId) continue;
    const documentId = await upload(pod.loadId, `${pod.id}-${file.key}`, file, (fraction) => {
      for (const l of progressListeners) l({ podId: pod.id, fileKey: file.key, fraction });
    });
    file.documentId = documentId;
    await put(pod);
  }
  let res: Response;
  try {
    res = await watchedFetch("/trpc/loads.deliverWithProof", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", "Idempotency-Key": pod.id },
      body: JSON.stringify({
        loadId: pod.loadId,
        receiverName: pod.receiverName,
        documentIds: pod.files.map((f) => f.documentId),
      }),
    });
  } catch {
    throw new NoNetwork();
  }
  if (!res.ok) throw classify(res.status, await res.text());
  await remove(pod.id);
};

export type TPodSendResult = { sent: number; refused: TPendingPod[]; waiting: number };

const sendAll = async (): Promise<TPodSendResult> => {
  await refresh();
  let sent = 0;
  const refused: TPendingPod[] = [];
  for (const pod of pods.filter((p) => !p.refused)) {
    try {
      await sendOne(pod);
      sent++;
    } catch (err) {
      if (err instanceof Refused) {
        const r = { ...pod, refused: err.message };
        await put(r);
        refused.push(r);
        continue;
      }
      break; // no network, or not now: the rest waits, in order
    }
  }
  return { sent, refused, waiting: pods.filter((p) => !p.refused).length };
};

let running: Promise<TPodSendResult> | null = null;
let again: Promise<TPodSendResult> | null = null;
/**
 * Sends the proofs waiting; one sender at a time across tabs (Web Locks), so no file goes twice. Asked while a send
 * runs, it runs once more after it, for a proof kept meanwhile.
 */
export const sendPendingPods = (): Promise<TPodSendResult> => {
  if (running) {
    again ??= running.then(() => {
      again = null;
      return sendPendingPods();
    });
    return again;
  }
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  const current: Promise<TPodSendResult> = (
    locks
      ? new Promise<TPodSendResult>((resolve, reject) => {
          locks.request("mytess-pod", () => sendAll().then(resolve, reject)).catch(reject);
        })
      : sendAll()
  ).finally(() => {
    running = null;
  });
  running = current;
  return current;
};
