// Test helpers for the outgoing-call guard: a listener on every loopback address that records each connection made to
// it and answers any request with a body no user may ever see, and name resolution the test decides.
import { type TResolvedAddress, useResolver } from "./integrations/http/guard";

/** What the listener answers; a test fails if this text reaches any answer or stored row. */
export const INTERNAL_SECRET = "internal-only-answer-7f3a9c";

/**
 * A TCP listener on all loopback addresses (IPv4 and IPv6) of one port. Every connection counts, whatever it carries
 * (HTTP, a TLS hello); an HTTP request gets a 401 whose JSON body holds INTERNAL_SECRET in the fields services'
 * error readers quote.
 */
export const startRecordingListener = () => {
  const connections: string[] = [];
  const body = JSON.stringify({
    message: INTERNAL_SECRET,
    error: INTERNAL_SECRET,
    errors: [{ message: INTERNAL_SECRET }],
    version: 1,
    loads: [],
  });
  const answer = `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
  const listener = Bun.listen({
    hostname: "::",
    port: 0,
    socket: {
      open(s) {
        connections.push(s.remoteAddress ?? "?");
      },
      data(s) {
        s.write(answer);
        s.end();
      },
    },
  });
  return { port: listener.port, connections, stop: () => listener.stop(true) };
};

/**
 * Resolves the names in `names` (anything else does not resolve) until the returned function is called: how a test
 * makes a public-looking name point at loopback, as a hostile DNS server would.
 */
export const resolveNames = (names: Record<string, string | string[]>) => {
  const calls: string[] = [];
  const restore = useResolver(async (host) => {
    calls.push(host);
    const found = names[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return (Array.isArray(found) ? found : [found]).map(
      (address): TResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }),
    );
  });
  return { calls, restore };
};
