import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { checkKey, type TStorage, type TStoredMeta } from "./types";

/**
 * Files in a folder on this machine (by default `files/` beside the database). Each object is its bytes and a small
 * `.meta.json` beside them with the content type; both are written to a temporary name and renamed into place, so a
 * reader never sees half a file.
 */
export const localStorage = (dir: string): TStorage => {
  const pathOf = (key: string) => join(dir, checkKey(key));
  const metaOf = async (path: string): Promise<TStoredMeta | null> => {
    try {
      const [meta, info] = await Promise.all([readFile(`${path}.meta.json`, "utf8"), stat(path)]);
      return { contentType: (JSON.parse(meta) as { contentType: string }).contentType, size: info.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  };
  const writeAtomic = async (path: string, data: Uint8Array | string) => {
    const tmp = `${path}.${process.pid}.${crypto.randomUUID()}.tmp`;
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, path);
  };
  return {
    kind: "local",
    put: async (key, data, contentType) => {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeAtomic(`${path}.meta.json`, JSON.stringify({ contentType }));
      await writeAtomic(path, data);
      return { contentType, size: data.byteLength };
    },
    get: async (key) => {
      const path = pathOf(key);
      const meta = await metaOf(path);
      if (!meta) return null;
      return { ...meta, data: new Uint8Array(await readFile(path)) };
    },
    stream: async (key) => {
      const path = pathOf(key);
      const meta = await metaOf(path);
      if (!meta) return null;
      return { ...meta, stream: Bun.file(path).stream() };
    },
    delete: async (key) => {
      const path = pathOf(key);
      await rm(path, { force: true });
      await rm(`${path}.meta.json`, { force: true });
    },
  };
};
