// Secrets kept in the database (load-board and store credentials, later payment keys) are sealed with AES-256-GCM. The
// key never lives in the database: MYTESS_SECRET_KEY (32 bytes, base64 or hex), or a key file beside the database made
// once on first use. A sealed value is "v1.<iv>.<tag>.<ciphertext>" in base64url; opening checks the tag, so a value
// changed in the database or sealed under another key is refused rather than read wrongly.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseSecretKey } from "./config";

export type TSecretBox = {
  seal: (plain: string) => string;
  open: (sealed: string) => string;
  /**
   * HMAC-SHA256 (hex) under a key derived from the secret key: for short secrets such as one-time codes, whose hash
   * in the database must not be worth guessing, and for values derived from a stored random id.
   */
  mac: (data: string) => string;
};

const parseKey = parseSecretKey;

/** Where the key file lives for a database path; null for an in-memory database (a key for this process only). */
export const secretKeyFileFor = (databasePath: string) =>
  databasePath === ":memory:" || databasePath === "" ? null : join(dirname(databasePath), "secret.key");

/** The key: from an environment's MYTESS_SECRET_KEY, else the key file, else a fresh one. */
export const loadSecretKey = (env: Record<string, string | undefined>, keyFile: string | null): Buffer =>
  secretKeyFrom(env.MYTESS_SECRET_KEY?.trim() || null, keyFile);

/** The configured key (MYTESS_SECRET_KEY), else the key file (made once, race-safe across processes), else a fresh one. */
export const secretKeyFrom = (configured: string | null, keyFile: string | null): Buffer => {
  if (configured) return parseKey(configured, "MYTESS_SECRET_KEY");
  if (!keyFile) return randomBytes(32);
  try {
    return parseKey(readFileSync(keyFile, "utf8"), keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dirname(keyFile), { recursive: true });
  const tmp = `${keyFile}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return parseKey(readFileSync(keyFile, "utf8"), keyFile);
};

export const createSecretBox = (key: Buffer): TSecretBox => {
  // A key of its own for MACs, so the sealing key is never used for a second purpose.
  const macKey = createHmac("sha256", key).update("mytess:mac:v1").digest();
  return {
    mac: (data) => createHmac("sha256", macKey).update(data).digest("hex"),
    seal: (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open: (sealed) => {
      const [v, iv, tag, data] = sealed.split(".");
      if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
};

export const secretsFromEnv = (env: Record<string, string | undefined>, keyFile: string | null) =>
  createSecretBox(loadSecretKey(env, keyFile));
