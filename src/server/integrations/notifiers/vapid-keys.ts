import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import webpush from "web-push";
import { z } from "zod";
import { parseVapidKeys } from "../../config";

export type TVapidKeys = { publicKey: string; privateKey: string };

const b64urlBytes = (n: number) =>
  z.string().refine((s) => /^[A-Za-z0-9_-]+=*$/.test(s) && Buffer.from(s, "base64url").length === n, {
    message: `must be ${n} bytes in base64url`,
  });
// Uncompressed P-256 point (65 bytes) and scalar (32 bytes), as browsers' applicationServerKey and web-push want them.
const ZVapidKeys = z.object({ publicKey: b64urlBytes(65), privateKey: b64urlBytes(32) });

/**
 * The server's VAPID key pair. Every browser subscription is bound to the public key, so it must never change by
 * accident: the configured pair (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY) when given, otherwise from a key file beside
 * the database, made once. `keyFile` null (an in-memory database) gives keys for this process only.
 */
export const vapidKeysFrom = (configured: TVapidKeys | null, keyFile: string | null): TVapidKeys => {
  if (configured) return configured;
  if (!keyFile) return webpush.generateVAPIDKeys();
  const read = () => {
    const keys = ZVapidKeys.safeParse(JSON.parse(readFileSync(keyFile, "utf8")));
    if (!keys.success) throw new Error(`${keyFile} does not hold a VAPID key pair; remove it to make a new one`);
    return keys.data;
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  // Several server processes may start at once: each writes its own temporary file and links it into place, which
  // fails if another got there first; the loser then reads the winner's keys. No process ever reads a half file.
  mkdirSync(dirname(keyFile), { recursive: true });
  const tmp = `${keyFile}.${process.pid}.${Date.now()}.tmp`;
  const fresh = webpush.generateVAPIDKeys();
  writeFileSync(tmp, `${JSON.stringify({ ...fresh, createdAt: new Date().toISOString() }, null, 2)}\n`, {
    mode: 0o600,
  });
  try {
    linkSync(tmp, keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return read();
};

/** The key pair from an environment's VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither), else the key file. */
export const loadVapidKeys = (env: Record<string, string | undefined>, keyFile: string | null): TVapidKeys =>
  vapidKeysFrom(parseVapidKeys(env), keyFile);
