// The guard every outgoing request passes (docs/security.md, "Outgoing calls"). A user can hand the server an address
// (a load board's base URL, a feed, a shop, a push endpoint), so before anything is sent:
//
// - the URL is https, without user info, and its host is not a local name (localhost, *.local, a single label…);
// - the host name is resolved here, and every address it resolves to must be public (integrations/http/addresses.ts);
// - the connection goes to the address that was checked: the request is sent to that IP, with the name in the Host
//   header and as the TLS server name, so the certificate is still verified for the name and no second lookup (DNS
//   rebinding) can change where it goes;
// - redirects are not followed by fetch: a redirect within the same origin is checked and pinned again like the first
//   request, one to another origin is refused (it would carry the credentials to a host nobody configured).
//
// Origins the operator configured (its emulators in tests and demo mode, an explicitly set base URL such as
// FEDEX_BASE_URL, SANDBOX_ORIGINS) are `trusted`: plain http and any address are allowed there, still resolved and
// pinned. Nothing a user types is trusted unless it is exactly such an origin.
import { lookup } from "node:dns/promises";
import { isPublicIp, parseIp } from "./addresses";

export type TResolvedAddress = { address: string; family: 4 | 6 };
/** Name → addresses; the system's resolver unless a test swaps it (`useResolver`). */
export type TResolver = (host: string) => Promise<TResolvedAddress[]>;

const systemResolver: TResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

let resolver: TResolver = systemResolver;

/** Answers name lookups with `r` (tests: a name that resolves to loopback) until the returned function is called. */
export const useResolver = (r: TResolver) => {
  const previous = resolver;
  resolver = r;
  return () => {
    resolver = previous;
  };
};

/** Why a request was not sent. */
export type TRefusal = "url" | "scheme" | "credentials" | "name" | "address" | "unresolved" | "redirect";

/** A request the guard did not send (or a redirect it did not follow); `host` is the name as given. */
export class OutgoingRefused extends Error {
  constructor(
    readonly refusal: TRefusal,
    readonly host: string,
  ) {
    super(`outgoing request to ${host || "(no host)"} refused: ${refusal}`);
    this.name = "OutgoingRefused";
  }
}

export type TGuardOptions = {
  /**
   * Origins (or URLs whose origin counts) the operator configured: plain http and private or loopback addresses are
   * allowed there. Never an address a user typed, unless it is exactly one of the operator's.
   */
  trusted?: readonly (string | null | undefined)[];
};

/** The origin of a URL, or null when it is not one. */
export const originOf = (url: string | URL) => {
  try {
    const o = new URL(url).origin;
    return o === "null" ? null : o;
  } catch {
    return null;
  }
};

/** Whether `url` is on one of the trusted origins. */
export const isTrusted = (url: string | URL, trusted: TGuardOptions["trusted"]) => {
  const o = originOf(url);
  return o !== null && (trusted ?? []).some((t) => t && originOf(t) === o);
};

/** The host without brackets or a final dot, lower case: what is resolved and what the certificate must name. */
export const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/**
 * Names that are local by definition or by convention, whatever a resolver says: localhost, the mDNS and private-use
 * suffixes, and single labels (completed by the machine's search domains to hosts of its own network).
 */
export const isLocalName = (host: string) => {
  const h = bareHost(host);
  if (parseIp(h)) return false;
  return (
    !h.includes(".") ||
    h === "localhost" ||
    /\.(localhost|local|localdomain|internal|intranet|lan|home|corp|private|home\.arpa)$/.test(h)
  );
};

/**
 * The checks that need no lookup, for a URL about to be called or saved: its scheme, user info, and (unless trusted)
 * https, a name that is not local and an IP literal that is public. Throws OutgoingRefused.
 */
export const checkUrl = (url: URL, trusted: boolean) => {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new OutgoingRefused("scheme", url.hostname);
  if (url.username || url.password) throw new OutgoingRefused("credentials", url.hostname);
  if (trusted) return;
  if (url.protocol !== "https:") throw new OutgoingRefused("scheme", url.hostname);
  const ip = parseIp(bareHost(url.hostname));
  if (ip ? !isPublicIp(ip) : isLocalName(url.hostname)) throw new OutgoingRefused("address", url.hostname);
};

/** Waits for `p`, or rejects when `signal` aborts first (a name lookup cannot itself be cancelled). */
const abortable = <T>(p: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> => {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
};

/**
 * The addresses to connect to for a URL's host: the literal itself, or every address the name resolves to, each of
 * which must be public unless the origin is trusted. IPv4 first (what most servers listen on).
 */
export const checkedAddresses = async (url: URL, trusted: boolean, signal?: AbortSignal | null) => {
  const host = bareHost(url.hostname);
  let addresses: string[];
  if (parseIp(host)) addresses = [host];
  else {
    let found: TResolvedAddress[];
    try {
      found = await abortable(resolver(host), signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new OutgoingRefused("unresolved", url.hostname);
    }
    if (!found.length) throw new OutgoingRefused("unresolved", url.hostname);
    addresses = [...found].sort((a, b) => a.family - b.family).map((a) => a.address);
  }
  if (!trusted) {
    for (const a of addresses) {
      const ip = parseIp(a);
      if (!ip || !isPublicIp(ip)) throw new OutgoingRefused("address", url.hostname);
    }
  }
  return addresses;
};

export type TGuardedInit = BunFetchRequestInit;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Failures that mean nothing reached the address, so the next address of the name may be tried. */
const NOT_CONNECTED = new Set(["ConnectionRefused", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "EADDRNOTAVAIL"]);

/** One request to one checked address: the IP in the URL, the name in Host and in the TLS server name. */
const sendPinned = (url: URL, address: string, init: TGuardedInit) => {
  const pinned = new URL(url);
  pinned.hostname = address.includes(":") ? `[${address}]` : address;
  const headers = new Headers(init.headers);
  headers.set("Host", url.host.replace(/\.(:\d+)?$/, "$1"));
  const name = bareHost(url.hostname);
  const tls = url.protocol === "https:" && !parseIp(name) ? { ...init.tls, serverName: name } : init.tls;
  return fetch(pinned, { ...init, headers, redirect: "manual", ...(tls ? { tls } : {}) });
};

/**
 * fetch() through the guard: the URL checked, its name resolved and every address checked, the connection pinned to a
 * checked address, and redirects followed only within the same origin, each hop checked again (at most 5). With
 * `redirect: "manual"` a redirect comes back as it is; with "error" it throws. A refusal throws OutgoingRefused.
 */
export const guardedFetch = async (
  input: string | URL,
  init: TGuardedInit = {},
  options: TGuardOptions = {},
): Promise<Response> => {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutgoingRefused("url", "");
  }
  let request = init;
  for (let hop = 0; ; hop++) {
    const trusted = isTrusted(url, options.trusted);
    checkUrl(url, trusted);
    const addresses = await checkedAddresses(url, trusted, request.signal);
    let res: Response | undefined;
    for (const [i, address] of addresses.entries()) {
      try {
        res = await sendPinned(url, address, request);
        break;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (i === addresses.length - 1 || !code || !NOT_CONNECTED.has(code)) throw err;
      }
    }
    const location = res!.headers.get("location");
    if (!REDIRECTS.has(res!.status) || !location || init.redirect === "manual") return res!;
    await res!.body?.cancel();
    if (init.redirect === "error") throw new OutgoingRefused("redirect", url.hostname);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutgoingRefused("redirect", url.hostname);
    }
    if (next.origin !== url.origin || hop >= MAX_REDIRECTS) throw new OutgoingRefused("redirect", url.hostname);
    // 303, and 301/302 after a POST, continue as a GET without the body (what browsers and fetch do).
    const toGet = res!.status === 303 || ((res!.status === 301 || res!.status === 302) && request.method === "POST");
    if (toGet) {
      const headers = new Headers(request.headers);
      headers.delete("content-type");
      headers.delete("content-length");
      request = { ...request, method: "GET", body: undefined, headers };
    } else if (request.body instanceof ReadableStream) {
      // A streamed body was spent on the first hop and cannot be sent again.
      throw new OutgoingRefused("redirect", url.hostname);
    }
    url = next;
  }
};

/** A fetch-compatible function bound to guard options, for libraries that take one (grammY, openid-client). */
export const guardedFetcher =
  (options: TGuardOptions = {}) =>
  (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (input instanceof Request) {
      // Libraries that build a Request hand over its parts; its body is read once, here.
      const { url, method, headers, signal } = input;
      const body = method === "GET" || method === "HEAD" ? undefined : input.body;
      return guardedFetch(url, { method, headers, signal, body, ...init }, options);
    }
    return guardedFetch(input, init as TGuardedInit, options);
  };

/** Whether a host is one of `patterns`: "api.example.com" exactly, or "*.example.com" for any name below it. */
export const hostMatches = (hostname: string, patterns: readonly string[]) => {
  const h = bareHost(hostname);
  return patterns.some((p) => (p.startsWith("*.") ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p));
};

/**
 * Whether a service address a user gives may be saved, checked without a lookup (the lookup happens on every call):
 * an origin the operator trusts (its Sandbox) without user info; else https without user info, and with `hosts` one of
 * the vendor's documented hosts on the default port, without them any host that is not local or a private address.
 */
export const acceptsServiceUrl = (
  url: string,
  o: { hosts?: readonly string[] | null; trusted?: TGuardOptions["trusted"] },
) => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  try {
    checkUrl(u, isTrusted(u, o.trusted));
  } catch {
    return false;
  }
  if (isTrusted(u, o.trusted) || !o.hosts) return true;
  return u.port === "" && hostMatches(u.hostname, o.hosts);
};
