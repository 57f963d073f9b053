import { afterAll, describe, expect, test } from "bun:test";
import { checkProductionSettings, loadConfig, parseMapOrigins, vapidSubjectProblem } from "./config";
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

describe("VAPID_SUBJECT: the contact push services see, required in production", () => {
  test("a mailto: address or an https: URL of a real host; anything else is named", () => {
    expect(vapidSubjectProblem("mailto:ops@mytess.example")).toBeNull();
    expect(vapidSubjectProblem("https://mytess.example")).toBeNull();
    expect(vapidSubjectProblem(undefined)).toStartWith("VAPID_SUBJECT is not set");
    expect(vapidSubjectProblem("  ")).toStartWith("VAPID_SUBJECT is not set");
    for (const bad of ["ops@mytess.example", "http://mytess.example", "mailto:", "mailto:nobody", "tel:+251911"])
      expect(vapidSubjectProblem(bad)).toBe(`VAPID_SUBJECT: "${bad}" is not a mailto: address or an https: URL`);
    for (const local of [
      "mailto:postmaster@localhost",
      "https://localhost",
      "https://push.localhost",
      "mailto:a@box.local",
    ])
      expect(vapidSubjectProblem(local)).toBe(
        `VAPID_SUBJECT: "${local}" names a local host, which Apple's push service refuses`,
      );
  });

  test("demo mode and test runs do without it; production does not", () => {
    expect(() => checkProductionSettings({}, { demo: true })).not.toThrow();
    expect(() => checkProductionSettings({ NODE_ENV: "test" }, { demo: false })).not.toThrow();
    expect(() => checkProductionSettings({ NODE_ENV: "production" }, { demo: false })).toThrow(
      "VAPID_SUBJECT is not set",
    );
    expect(() => checkProductionSettings({ VAPID_SUBJECT: "https://mytess.example" }, { demo: false })).not.toThrow();
  });
});
