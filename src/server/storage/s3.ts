import { S3Client } from "bun";
import type { TStorageConfig } from "../config";
import { checkKey, type TStorage } from "./types";

type TS3Config = Extract<TStorageConfig, { kind: "s3" }>;

const isMissing = (err: unknown) => {
  const code = (err as { code?: string; name?: string })?.code ?? (err as { name?: string })?.name;
  return code === "NoSuchKey" || code === "ERR_S3_FILE_NOT_FOUND" || code === "ENOENT";
};

/**
 * An S3-compatible bucket through Bun's built-in client (SigV4, path-style requests to S3_ENDPOINT). The endpoint is
 * the operator's configuration, like the other configured base URLs, so it is trusted as given; Bun's client does its
 * own requests and does not pass through the outgoing-call guard (docs/security.md says so).
 */
export const s3Storage = (c: TS3Config): TStorage => {
  const client = new S3Client({
    bucket: c.bucket,
    region: c.region,
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    ...(c.endpoint ? { endpoint: c.endpoint } : {}),
  });
  const full = (key: string) => (c.prefix ? `${c.prefix}/${checkKey(key)}` : checkKey(key));
  const meta = async (key: string) => {
    try {
      const s = await client.file(full(key)).stat();
      return { contentType: s.type.split(";")[0]!.trim(), size: s.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  return {
    kind: "s3",
    put: async (key, data, contentType) => {
      await client.write(full(key), data, { type: contentType });
      return { contentType, size: data.byteLength };
    },
    get: async (key) => {
      const m = await meta(key);
      if (!m) return null;
      return { ...m, data: new Uint8Array(await client.file(full(key)).arrayBuffer()) };
    },
    stream: async (key) => {
      const m = await meta(key);
      if (!m) return null;
      return { ...m, stream: client.file(full(key)).stream() };
    },
    delete: async (key) => {
      await client.delete(full(key));
    },
  };
};
