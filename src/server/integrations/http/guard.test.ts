import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createTestCertificate } from "../../../../emulators/notifiers/test-certificate";
import { AppError } from "../../errors";
import { resolveNames, startRecordingListener } from "../../testing-outgoing";
import { isPublicAddress, parseIp } from "./addresses";
import { acceptsServiceUrl, guardedFetch, hostMatches, OutgoingRefused } from "./guard";
import { exchange } from "./kit";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const listener = startRecordingListener();
const P = listener.port;
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});
afterAll(() => listener.stop());

/** The error a call fails with (a test that expects a failure fails when there is none). */
const failure = async <T = { code?: string; message: string }>(p: Promise<unknown>): Promise<T> => {
  try {
    await p;
  } catch (err) {
    return err as T;
  }
  throw new Error("expected a failure");
};

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutgoingRefused) return err;
    throw err;
  }
  throw new Error("expected a refusal");
};

describe("addresses", () => {
  test("private, loopback, link-local, CGNAT, multicast, reserved and embedded-IPv4 forms are not public", () => {
    for (const a of [
      "0.0.0.0",
      "0.1.2.3",
      "10.0.0.1",
      "100.64.0.1",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.88.99.1",
      "192.168.1.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:8.8.8.8",
      "::127.0.0.1",
      "::ffff:0:127.0.0.1",
      "64:ff9b::7f00:1",
      "64:ff9b::808:808",
      "64:ff9b:1::1",
      "100::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "fec0::1",
      "ff02::1",
      "2001:db8::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:2::1",
      "2002:7f00:1::1",
      "2002:c0a8:101::1",
      "2002:a00:1::1",
      "3fff::1",
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
  });

  test("public unicast passes, 6to4 of a public address too", () => {
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "192.169.0.1",
      "2606:4700:4700::1111",
      "2a00:1450:4001:82b::200e",
      "2002:808:808::1",
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
  });

  test("only strict literals are addresses: other spellings are names (and the URL parser normalises them first)", () => {
    for (const t of [
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "01.2.3.4",
      "1.2.3.4.5",
      "::g",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
    ])
      expect([t, parseIp(t)]).toEqual([t, null]);
    expect(Array.from(parseIp("::ffff:127.0.0.1")!)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]);
    expect(new URL("https://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://2130706433/").hostname).toBe("127.0.0.1");
  });
});

describe("nothing reaches a private address", () => {
  test("every spelling of loopback, and names that resolve there, are refused before a connection is made", async () => {
    restore = resolveNames({
      "localtest.me": "127.0.0.1",
      "v6.example.com": "::1",
      "mapped.example.com": "::ffff:127.0.0.1",
      "nat64.example.com": "64:ff9b::7f00:1",
      // One public address is not enough: every address a name has must be public.
      "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
      "private.example.com": "10.0.0.5",
      "metadata.example.com": "169.254.169.254",
    }).restore;
    const forms = [
      `https://127.0.0.1:${P}/`,
      `http://127.0.0.1:${P}/`,
      `https://localhost:${P}/`,
      `https://localhost.:${P}/`,
      `https://LOCALHOST:${P}/`,
      `https://127.1:${P}/`,
      `https://0x7f.1:${P}/`,
      `https://2130706433:${P}/`,
      `https://017700000001:${P}/`,
      `https://127.0.0.1.:${P}/`,
      `https://0.0.0.0:${P}/`,
      `https://[::1]:${P}/`,
      `https://[::]:${P}/`,
      `https://[::ffff:127.0.0.1]:${P}/`,
      `https://[::127.0.0.1]:${P}/`,
      `https://[64:ff9b::7f00:1]:${P}/`,
      `https://localtest.me:${P}/`,
      `https://localtest.me.:${P}/`,
      `https://v6.example.com:${P}/`,
      `https://mapped.example.com:${P}/`,
      `https://nat64.example.com:${P}/`,
      `https://rebind.example.com:${P}/`,
      `https://private.example.com:${P}/`,
      `https://metadata.example.com:${P}/`,
      `https://intranet:${P}/`,
      `https://printer.local:${P}/`,
      `https://x@localtest.me:${P}/`,
      `ftp://localtest.me:${P}/`,
    ];
    const why = (url: string) =>
      url.startsWith("https://x@") ? "credentials" : url.startsWith("https:") ? "address" : "scheme";
    for (const url of forms) {
      const err = await refusal(guardedFetch(url, { method: "POST", body: "{}" }));
      expect([url, err.refusal]).toEqual([url, why(url)]);
    }
    expect(listener.connections).toEqual([]);
    // The listener does record: an unguarded fetch to one of those forms reaches it.
    expect((await fetch(`http://[::ffff:127.0.0.1]:${P}/`)).status).toBe(401);
    expect(listener.connections).toHaveLength(1);
    listener.connections.length = 0;
  });

  test("a name that does not resolve is refused as such; the system resolver is used when no test replaces it", async () => {
    restore = resolveNames({}).restore;
    expect((await refusal(guardedFetch("https://nowhere.example.com/"))).refusal).toBe("unresolved");
    restore();
    restore = null;
    expect((await refusal(guardedFetch("https://nowhere.invalid/"))).refusal).toBe("unresolved");
  });

  test("exchange names the service and the host, never the answer or the address it resolved to", async () => {
    restore = resolveNames({ "localtest.me": "127.0.0.1" }).restore;
    const err = await failure<AppError>(exchange("My feed", `https://localtest.me:${P}/loads`, {}, 2000));
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      "My feed was not called: this server calls only public https addresses, and localtest.me is not one",
    );
    // A trusted origin that is closed: the reason is the error's code, not fetch's text with the URL in it.
    const closed = await failure<AppError>(
      exchange("Sandbox", "http://127.0.0.1:9/x", {}, 2000, { trusted: ["http://127.0.0.1:9"] }),
    );
    expect(closed.code).toBe("BAD_GATEWAY");
    expect(closed.message).toMatch(/^Sandbox could not be reached: [A-Za-z_]+$/);
    expect(listener.connections).toEqual([]);
  });
});

describe("the connection goes to the checked address, with the name for TLS", () => {
  const tls = createTestCertificate("pinned.test", ["pinned.test"]);
  const seen: { sni: string | undefined; host: string | undefined; method: string | undefined }[] = [];
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    seen.push({ sni: (req.socket as { servername?: string }).servername, host: req.headers.host, method: req.method });
    res.end("pinned");
  });
  const started = new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
  afterAll(() => server.close());

  test("https to a name the system cannot resolve: our lookup's address, SNI and Host the name, certificate verified for it", async () => {
    const port = await started;
    const names = resolveNames({ "pinned.test": "127.0.0.1", "other.test": "127.0.0.1" });
    restore = names.restore;
    const trusted = [`https://pinned.test:${port}`, `https://other.test:${port}`];
    const res = await guardedFetch(`https://pinned.test:${port}/x`, { tls: { ca: tls.cert } }, { trusted });
    expect(await res.text()).toBe("pinned");
    expect(seen).toEqual([{ sni: "pinned.test", host: `pinned.test:${port}`, method: "GET" }]);
    // One lookup, ours: fetch never looked the name up again (it could not have: only our resolver knows it).
    expect(names.calls).toEqual(["pinned.test"]);

    // The certificate is still checked against the name: one for pinned.test does not do for other.test ...
    const wrongName = await failure(
      guardedFetch(`https://other.test:${port}/x`, { tls: { ca: tls.cert } }, { trusted }),
    );
    expect(wrongName.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    // ... and without the test's certificate authority it is not trusted at all.
    const untrusted = await failure(guardedFetch(`https://pinned.test:${port}/x`, {}, { trusted }));
    expect(untrusted.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(seen).toHaveLength(1);
  });
});

describe("redirects", () => {
  let hits: string[] = [];
  const redirector = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      hits.push(`${req.method} ${path}`);
      const to = (location: string, status = 302) => new Response(null, { status, headers: { location } });
      if (path === "/to-listener") return to(`http://127.0.0.1:${P}/`);
      if (path === "/to-name") return to(`https://localtest.me:${P}/`);
      if (path === "/to-other-port") return to(`http://redirector.test:${P}/`);
      if (path === "/same") return to("/final");
      if (path === "/loop") return to("/loop", 307);
      if (path === "/post") return to("/final", 303);
      if (path === "/final") return new Response(`done ${req.method}`);
      return new Response("?", { status: 404 });
    },
  });
  const base = `http://redirector.test:${redirector.port}`;
  afterAll(() => redirector.stop(true));

  test("a redirect to another origin is refused, a trusted one's included; nothing reaches the target", async () => {
    restore = resolveNames({ "redirector.test": "127.0.0.1", "localtest.me": "127.0.0.1" }).restore;
    for (const path of ["/to-listener", "/to-name", "/to-other-port"])
      expect((await refusal(guardedFetch(`${base}${path}`, {}, { trusted: [base] }))).refusal).toBe("redirect");
    expect(listener.connections).toEqual([]);
  });

  test("within the origin each hop is checked and followed (at most 5); 303 continues as GET; manual returns it", async () => {
    restore = resolveNames({ "redirector.test": "127.0.0.1" }).restore;
    hits = [];
    expect(await (await guardedFetch(`${base}/same`, {}, { trusted: [base] })).text()).toBe("done GET");
    const posted = await guardedFetch(`${base}/post`, { method: "POST", body: "x" }, { trusted: [base] });
    expect(await posted.text()).toBe("done GET");
    expect(hits).toEqual(["GET /same", "GET /final", "POST /post", "GET /final"]);
    hits = [];
    expect((await refusal(guardedFetch(`${base}/loop`, {}, { trusted: [base] }))).refusal).toBe("redirect");
    expect(hits).toHaveLength(6);
    const manual = await guardedFetch(`${base}/same`, { redirect: "manual" }, { trusted: [base] });
    expect(manual.status).toBe(302);
    // Untrusted, the same server is refused before any hop.
    hits = [];
    expect((await refusal(guardedFetch(`${base}/same`))).refusal).toBe("scheme");
    expect((await refusal(guardedFetch(`https://redirector.test:${redirector.port}/same`))).refusal).toBe("address");
    expect(hits).toEqual([]);
  });
});

describe("service addresses a user gives", () => {
  test("vendor hosts: https, default port, no user info, the host or a name below a wildcard", () => {
    const hosts = ["api.123loadboard.com", "*.myshopify.com"];
    expect(hostMatches("API.123loadboard.com.", hosts)).toBe(true);
    expect(hostMatches("acme.myshopify.com", hosts)).toBe(true);
    expect(hostMatches("myshopify.com", hosts)).toBe(false);
    expect(hostMatches("acme.myshopify.com.evil.com", hosts)).toBe(false);
    expect(hostMatches("evilmyshopify.com", hosts)).toBe(false);
    for (const url of ["https://api.123loadboard.com", "https://api.123loadboard.com/v1", "https://acme.myshopify.com"])
      expect([url, acceptsServiceUrl(url, { hosts })]).toEqual([url, true]);
    for (const url of [
      "http://api.123loadboard.com",
      "https://api.123loadboard.com:8443",
      "https://u:p@api.123loadboard.com",
      "https://api.123loadboard.com.evil.com",
      "https://acme.myshopify.com.evil.com",
      "not a url",
    ])
      expect([url, acceptsServiceUrl(url, { hosts })]).toEqual([url, false]);
  });

  test("without a vendor list: any https host that is not local; the operator's Sandbox origin as it is", () => {
    for (const url of ["https://feed.broker.example", "https://feed.broker.example:8443/v1", "https://8.8.8.8"])
      expect([url, acceptsServiceUrl(url, {})]).toEqual([url, true]);
    for (const url of [
      "http://feed.broker.example",
      "https://127.0.0.1:8443",
      "https://10.1.2.3",
      "https://172.20.0.1",
      "https://192.168.1.1",
      "https://169.254.169.254",
      "https://localhost",
      "https://localhost.",
      "https://db.internal",
      "https://nas.local",
      "https://intranet",
      "https://[::1]",
      "https://[fd00::1]",
      "https://[::ffff:10.0.0.1]",
      "https://u@feed.broker.example",
    ])
      expect([url, acceptsServiceUrl(url, {})]).toEqual([url, false]);
    const trusted = ["http://127.0.0.1:4010"];
    expect(acceptsServiceUrl("http://127.0.0.1:4010/feed", { trusted })).toBe(true);
    expect(acceptsServiceUrl("http://127.0.0.1:4010/feed", { trusted, hosts: ["api.123loadboard.com"] })).toBe(true);
    expect(acceptsServiceUrl("http://127.0.0.1:4011/feed", { trusted })).toBe(false);
    expect(acceptsServiceUrl("http://localhost:4010/feed", { trusted })).toBe(false);
    expect(acceptsServiceUrl("http://u:p@127.0.0.1:4010/feed", { trusted })).toBe(false);
  });
});
