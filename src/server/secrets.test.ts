import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecretBox, loadSecretKey, secretKeyFileFor } from "./secrets";

describe("secrets", () => {
  test("seal and open round-trip; the sealed text shows nothing of the secret and differs each time", () => {
    const box = createSecretBox(loadSecretKey({}, null));
    const a = box.seal('{"password":"hunter2"}');
    const b = box.seal('{"password":"hunter2"}');
    expect(a).not.toContain("hunter2");
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('{"password":"hunter2"}');
  });

  test("a changed value or another key is refused", () => {
    const box = createSecretBox(loadSecretKey({}, null));
    const other = createSecretBox(loadSecretKey({}, null));
    const sealed = box.seal("secret");
    expect(() => other.open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => box.open(parts.join("."))).toThrow();
    expect(() => box.open("plain text")).toThrow("not a sealed secret");
  });

  test("a MAC is stable under one key, differs under another, and is not the plain value's hash", () => {
    const key = loadSecretKey({}, null);
    const box = createSecretBox(key);
    expect(box.mac("code:123456")).toMatch(/^[0-9a-f]{64}$/);
    expect(createSecretBox(key).mac("code:123456")).toBe(box.mac("code:123456"));
    expect(createSecretBox(loadSecretKey({}, null)).mac("code:123456")).not.toBe(box.mac("code:123456"));
    expect(box.mac("code:123457")).not.toBe(box.mac("code:123456"));
  });

  test("MYTESS_SECRET_KEY in hex or base64 gives the same key; a short key is refused by name", () => {
    const hex = "11".repeat(32);
    const b64 = Buffer.from(hex, "hex").toString("base64");
    const sealed = createSecretBox(loadSecretKey({ MYTESS_SECRET_KEY: hex }, null)).seal("x");
    expect(createSecretBox(loadSecretKey({ MYTESS_SECRET_KEY: b64 }, null)).open(sealed)).toBe("x");
    expect(() => loadSecretKey({ MYTESS_SECRET_KEY: "short" }, null)).toThrow("MYTESS_SECRET_KEY must be 32 bytes");
  });

  test("the key file is made once beside the database, private, and read back by the next process", () => {
    const dir = mkdtempSync(join(tmpdir(), "mytess-secret-"));
    const file = secretKeyFileFor(join(dir, "mytess.db"))!;
    expect(file).toBe(join(dir, "secret.key"));
    const first = loadSecretKey({}, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadSecretKey({}, file);
    expect(second.equals(first)).toBe(true);
    expect(readFileSync(file, "utf8").trim()).toBe(first.toString("base64"));
    expect(secretKeyFileFor(":memory:")).toBeNull();
  });
});
