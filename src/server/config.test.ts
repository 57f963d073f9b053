import { afterAll, describe, expect, test } from "bun:test";
import { loadConfig, parseMapOrigins } from "./config";
import { closeTestApps, createTestApp } from "./testing";

afterAll(closeTestApps);

const connectSrc = (res: Response) =>
  (res.headers.get("Content-Security-Policy") ?? "")
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith("connect-src"));

describe("MAP_ORIGINS: the map style's hosts in the page's CSP", () => {
  test("https origins, separated by commas or spaces, each once, a trailing slash allowed", () => {
    expect(parseMapOrigins(undefined)).toEqual([]);
    expect(parseMapOrigins("https://tiles.example.com, https://fonts.example.com/ https://tiles.example.com")).toEqual([
      "https://tiles.example.com",
      "https://fonts.example.com",
    ]);
  });

  test("anything but an https origin stops the start, naming the variable and the value", () => {
    for (const bad of [
      "http://tiles.example.com",
      "https://tiles.example.com/styles/x.json",
      "tiles.example.com",
      "*",
    ]) {
      expect(() => loadConfig({ MAP_ORIGINS: bad })).toThrow(`MAP_ORIGINS: "${bad}" is not an https origin`);
    }
  });

  test("the server's answers let the page fetch from those hosts only", async () => {
    const plain = await createTestApp();
    expect(connectSrc(await plain.app.handle(new Request("http://localhost/api/health")))).toBe("connect-src 'self'");

    const { mapOrigins } = loadConfig({ MAP_ORIGINS: "https://tiles.example.com,https://glyphs.example.com" });
    const mapped = await createTestApp({ mapOrigins });
    const res = await mapped.app.handle(new Request("http://localhost/api/health"));
    expect(connectSrc(res)).toBe("connect-src 'self' https://tiles.example.com https://glyphs.example.com");
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self';");
  });
});
