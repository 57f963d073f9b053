// The one storage interface against both back ends: a folder, and a real S3-compatible server (s3rver) started on
// loopback by this test, spoken to by the same client production uses.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "bun";
import S3rver from "s3rver";
import { ConfigError, loadConfig } from "../config";
import { storageFrom, type TStorage } from "./storage";

setDefaultTimeout(60_000);

const KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
let s3dir: string;
let localDir: string;
let server: S3rver;
let endpoint: string;

beforeAll(async () => {
  s3dir = mkdtempSync(join(tmpdir(), "mytess-s3rver-"));
  localDir = mkdtempSync(join(tmpdir(), "mytess-local-"));
  server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: "mytess-docs", configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await server.close();
  rmSync(s3dir, { recursive: true, force: true });
  rmSync(localDir, { recursive: true, force: true });
});

const readAll = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

const backends: [string, () => TStorage][] = [
  ["local folder", () => storageFrom({ kind: "local", dir: localDir })],
  [
    "S3-compatible server",
    () =>
      storageFrom(
        loadConfig({
          STORAGE_URL: "s3://mytess-docs/uploads/test",
          S3_ENDPOINT: endpoint,
          S3_REGION: "us-east-1",
          S3_ACCESS_KEY_ID: KEY.accessKeyId,
          S3_SECRET_ACCESS_KEY: KEY.secretAccessKey,
        }).storage,
      ),
  ],
];

for (const [name, make] of backends) {
  describe(name, () => {
    test("put, get, stream and delete by key, with content type and size", async () => {
      const storage = make();
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
      expect(await storage.put("loads/1/documents/a.pdf", bytes, "application/pdf")).toEqual({
        contentType: "application/pdf",
        size: 300_000,
      });
      const got = await storage.get("loads/1/documents/a.pdf");
      expect(got?.contentType).toBe("application/pdf");
      expect(got?.size).toBe(300_000);
      expect(Buffer.from(got!.data).equals(Buffer.from(bytes))).toBe(true);
      const streamed = await storage.stream("loads/1/documents/a.pdf");
      expect(streamed?.size).toBe(300_000);
      expect(Buffer.from(await readAll(streamed!.stream)).equals(Buffer.from(bytes))).toBe(true);
      await storage.put("loads/1/documents/a.pdf", new Uint8Array([1, 2, 3]), "image/png");
      expect(await storage.get("loads/1/documents/a.pdf")).toMatchObject({ contentType: "image/png", size: 3 });
      await storage.delete("loads/1/documents/a.pdf");
      expect(await storage.get("loads/1/documents/a.pdf")).toBeNull();
      expect(await storage.stream("loads/1/documents/a.pdf")).toBeNull();
      await storage.delete("loads/1/documents/a.pdf"); // deleting nothing is not an error
    });

    test("a key that could leave the folder or the prefix is refused before anything is written", async () => {
      const storage = make();
      for (const key of ["../escape.txt", "a/../../b", "/etc/passwd", "a//b", "", "a/./b", "a\\b"])
        await expect(storage.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow("storage key not allowed");
    });
  });
}

test("S3 objects live under the configured prefix in the configured bucket", async () => {
  const storage = storageFrom(
    loadConfig({
      STORAGE_URL: "s3://mytess-docs/tenant-a/",
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: KEY.accessKeyId,
      S3_SECRET_ACCESS_KEY: KEY.secretAccessKey,
    }).storage,
  );
  await storage.put("x/y.png", new Uint8Array([9, 9]), "image/png");
  const raw = new S3Client({ ...KEY, endpoint, bucket: "mytess-docs", region: "us-east-1" });
  expect(await raw.file("tenant-a/x/y.png").exists()).toBe(true);
  expect(await raw.file("x/y.png").exists()).toBe(false);
});

test("a write to a bucket that does not exist fails instead of passing silently", async () => {
  const storage = storageFrom({
    kind: "s3",
    bucket: "no-such-bucket",
    prefix: "",
    endpoint,
    region: "us-east-1",
    ...KEY,
  });
  await expect(storage.put("a.txt", new Uint8Array([1]), "text/plain")).rejects.toThrow();
});

describe("the configuration", () => {
  test("by default files go to files/ beside the database; file:// names another folder", () => {
    expect(loadConfig({ DATABASE_PATH: "/srv/mytess/app.db" }).storage).toEqual({
      kind: "local",
      dir: "/srv/mytess/files",
    });
    expect(loadConfig({ STORAGE_URL: "file:///var/lib/mytess-files" }).storage).toEqual({
      kind: "local",
      dir: "/var/lib/mytess-files",
    });
  });

  test("s3://bucket/prefix with the endpoint, region and keys", () => {
    expect(
      loadConfig({
        STORAGE_URL: "s3://docs/a/b/",
        S3_ENDPOINT: "https://s3.example.com/",
        S3_REGION: "eu-central-1",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
      }).storage,
    ).toEqual({
      kind: "s3",
      bucket: "docs",
      prefix: "a/b",
      endpoint: "https://s3.example.com",
      region: "eu-central-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
    });
  });

  test("an unusable storage setting is named", () => {
    expect(() => loadConfig({ STORAGE_URL: "ftp://x/y" })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_URL: "ftp://x/y" })).toThrow(
      "STORAGE_URL must be file:///path or s3://bucket/prefix",
    );
    expect(() => loadConfig({ STORAGE_URL: "s3://docs" })).toThrow(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: required with STORAGE_URL=s3://docs",
    );
    expect(() =>
      loadConfig({ STORAGE_URL: "s3://docs", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b", S3_ENDPOINT: "nope" }),
    ).toThrow('S3_ENDPOINT must be an http or https URL (got "nope")');
  });
});

test("nothing is left in the folder for a deleted key", async () => {
  const storage = storageFrom({ kind: "local", dir: localDir });
  await storage.put("gone/one.txt", new Uint8Array([1]), "text/plain");
  await storage.delete("gone/one.txt");
  expect(existsSync(join(localDir, "gone/one.txt"))).toBe(false);
  expect(existsSync(join(localDir, "gone/one.txt.meta.json"))).toBe(false);
});
