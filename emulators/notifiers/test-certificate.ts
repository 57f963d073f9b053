// A self-signed certificate for the loopback web push service, made in memory at start-up with node:crypto (DER by
// hand, no openssl binary needed). Its key lives only in this process: nothing secret is ever written to the repository.
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from "node:crypto";

const len = (n: number) => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff]);
const tlv = (tag: number, ...parts: Uint8Array[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag, ...len(body.length)]), body]);
};
const seq = (...p: Uint8Array[]) => tlv(0x30, ...p);
const oid = (hex: string) => tlv(0x06, Buffer.from(hex, "hex"));
const utcTime = (d: Date) => tlv(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-T:]/g, "")}Z`));

const ECDSA_SHA256 = seq(oid("2a8648ce3d040302"));
const name = (cn: string) => seq(tlv(0x31, seq(oid("550403"), tlv(0x0c, Buffer.from(cn)))));

export type TTestCertificate = { cert: string; key: string };

/**
 * A P-256 certificate for 127.0.0.1 and `names` (localhost by default), valid for a day, that is its own certificate
 * authority.
 */
export const createTestCertificate = (
  commonName = "MyTess test push service",
  names: readonly string[] = ["localhost"],
): TTestCertificate => {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const serial = randomBytes(16);
  // A positive INTEGER in minimal DER: the first byte 0x01–0x7f (0x00 there would be a non-minimal encoding, which
  // OpenSSL refuses: one start in 256 failed that way).
  serial[0] = (serial[0]! % 0x7f) + 1;
  const now = Date.now();
  const subjectAltName = seq(
    oid("551d11"),
    tlv(0x04, seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), ...names.map((n) => tlv(0x82, Buffer.from(n))))),
  );
  const basicConstraints = seq(
    oid("551d13"),
    Buffer.from([0x01, 0x01, 0xff]),
    tlv(0x04, seq(Buffer.from([0x01, 0x01, 0xff]))),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ECDSA_SHA256,
    name(commonName),
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 86_400_000))),
    name(commonName),
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, seq(subjectAltName, basicConstraints)),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n")}\n-----END CERTIFICATE-----\n`;
  // Parsing it back proves the encoding before any TLS library sees it.
  new X509Certificate(cert);
  return {
    cert,
    key: createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" })).export({
      type: "pkcs8",
      format: "pem",
    }) as string,
  };
};
