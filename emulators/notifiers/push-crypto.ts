// The browser's half of Web Push, done independently of the `web-push` package so the test checks it rather than
// trusting it: aes128gcm decryption (RFC 8188 records, RFC 8291 keys) and VAPID JWT verification (RFC 8292).
import { createDecipheriv, createPublicKey, type ECDH, hkdfSync, verify } from "node:crypto";

const info = (s: string) => Buffer.from(`${s}\0`);

/** The plaintext a user agent gets from an aes128gcm body, for its own ECDH key and auth secret. */
export const decryptAes128gcm = (body: Buffer, ua: ECDH, authSecret: Buffer): Buffer => {
  if (body.length < 21) throw new Error("body shorter than the aes128gcm header");
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const senderKey = body.subarray(21, 21 + idlen);
  if (idlen !== 65 || rs < 18) throw new Error("aes128gcm header does not carry the sender's P-256 key");
  const records = body.subarray(21 + idlen);
  const ikm = Buffer.from(
    hkdfSync(
      "sha256",
      ua.computeSecret(senderKey),
      authSecret,
      Buffer.concat([info("WebPush: info"), ua.getPublicKey(), senderKey]),
      32,
    ),
  );
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, info("Content-Encoding: aes128gcm"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, info("Content-Encoding: nonce"), 12));
  const parts: Buffer[] = [];
  const count = Math.ceil(records.length / rs);
  for (let i = 0; i < count; i++) {
    const record = records.subarray(i * rs, (i + 1) * rs);
    const iv = Buffer.from(nonce);
    // The record sequence number is XORed into the nonce's low bytes (RFC 8188 §2.3); fewer than 2^32 records here.
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ i) >>> 0, 8);
    const d = createDecipheriv("aes-128-gcm", cek, iv);
    d.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const delimiter = padded[end];
    if (delimiter !== (i === count - 1 ? 2 : 1)) throw new Error("aes128gcm record has a wrong padding delimiter");
    parts.push(padded.subarray(0, end));
  }
  return Buffer.concat(parts);
};

export type TVapidClaims = { aud: string; exp: number; sub: string };

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 signature by k, the audience is the push service's
 * origin, it expires within 24 hours, and names a contact. Returns the key and claims, or why it is refused.
 */
export const verifyVapid = (
  authorization: string | null,
  origin: string,
  nowS = Math.floor(Date.now() / 1000),
): { ok: true; publicKey: string; claims: TVapidClaims } | { ok: false; reason: string } => {
  const m = /^vapid\s+(.+)$/i.exec(authorization ?? "");
  if (!m) return { ok: false, reason: "missing vapid authorization" };
  const fields = Object.fromEntries(
    m[1].split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const [h, p, sig] = String(fields.t ?? "").split(".");
  const k = Buffer.from(String(fields.k ?? ""), "base64url");
  if (!h || !p || !sig || k.length !== 65 || k[0] !== 4) return { ok: false, reason: "malformed vapid token or key" };
  try {
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    if (header.alg !== "ES256") return { ok: false, reason: "vapid token is not ES256" };
    const key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: k.subarray(1, 33).toString("base64url"),
        y: k.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
    const good = verify(
      "sha256",
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: "ieee-p1363" },
      Buffer.from(sig, "base64url"),
    );
    if (!good) return { ok: false, reason: "vapid signature does not verify" };
    const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as TVapidClaims;
    if (claims.aud !== origin) return { ok: false, reason: `vapid audience ${claims.aud} is not ${origin}` };
    if (!(claims.exp > nowS && claims.exp <= nowS + 24 * 3600))
      return { ok: false, reason: "vapid token expired or valid for more than 24 hours" };
    if (!/^(mailto:|https:)/.test(claims.sub ?? ""))
      return { ok: false, reason: "vapid subject is not mailto: or https:" };
    return { ok: true, publicKey: k.toString("base64url"), claims };
  } catch (err) {
    return { ok: false, reason: `unreadable vapid token: ${(err as Error).message}` };
  }
};
