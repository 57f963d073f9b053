/** What a stored object is besides its bytes. */
export type TStoredMeta = { contentType: string; size: number };

/**
 * One place for uploaded files, addressed by key (`loads/12/documents/<random>.jpg`): a folder on this machine or an
 * S3-compatible bucket. Keys are chosen by the server, never by a user; `get` and `stream` answer null for a key that
 * holds nothing.
 */
export type TStorage = {
  kind: "local" | "s3";
  put: (key: string, data: Uint8Array, contentType: string) => Promise<TStoredMeta>;
  get: (key: string) => Promise<({ data: Uint8Array } & TStoredMeta) | null>;
  stream: (key: string) => Promise<({ stream: ReadableStream<Uint8Array> } & TStoredMeta) | null>;
  delete: (key: string) => Promise<void>;
};

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** Keys are server-made, but a wrong one must never reach outside the folder or the prefix. */
export const checkKey = (key: string) => {
  if (!KEY.test(key) || key.split("/").some((part) => part === ".." || part === ".") || key.length > 512)
    throw new Error(`storage key not allowed: ${JSON.stringify(key)}`);
  return key;
};
