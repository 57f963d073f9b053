// Which IP addresses an outgoing call may connect to. A user can give the server an address (a load board's base URL,
// a feed, a push endpoint); the server must not be made to reach its own machine or network with it. Only globally
// routable unicast addresses pass: every special-purpose range is refused, and so is every IPv6 form that carries an
// IPv4 address inside it (mapped, compatible, NAT64, 6to4 of a private address, Teredo), since the network may route
// those to the embedded address.

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export type TIpBytes = Uint8Array;

const V4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Strict dotted-quad IPv4 ("127.0.0.1"); other spellings (127.1, 0x7f.1, 2130706433) are not addresses here. */
export const parseIpv4 = (text: string): TIpBytes | null => {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => V4_PART.test(p))) return null;
  return Uint8Array.from(parts.map(Number));
};

/** IPv6 in any textual form (with `::`, an IPv4 tail, brackets, a zone id), or null. */
export const parseIpv6 = (input: string): TIpBytes | null => {
  let text = input.replace(/^\[(.*)\]$/, "$1");
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":") || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    // An IPv4 tail ("::ffff:127.0.0.1") stands for the last two groups.
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const words = [
    ...head.map((g) => Number.parseInt(g, 16)),
    ...Array<number>(8 - given).fill(0),
    ...rest.map((g) => Number.parseInt(g, 16)),
  ];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
};

/** An IP literal in either family, or null when the text is not one. */
export const parseIp = (text: string): TIpBytes | null => parseIpv4(text) ?? parseIpv6(text);

const inPrefix = (bytes: TIpBytes, prefix: TIpBytes, bits: number) => {
  for (let i = 0; i < bits; i++) {
    const bit = 7 - (i % 8);
    if (((bytes[i >> 3]! >> bit) & 1) !== ((prefix[i >> 3]! >> bit) & 1)) return false;
  }
  return true;
};

const cidr = (text: string): [TIpBytes, number] => {
  const [addr, bits] = text.split("/");
  return [parseIp(addr!)!, Number(bits)];
};

/**
 * IPv4 ranges that are not the public internet: this network, private (RFC 1918), shared CGNAT, loopback, link-local,
 * IETF protocol assignments, documentation, the old 6to4 relay, benchmarking, multicast, reserved and broadcast.
 */
const V4_BLOCKED = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map(cidr);

/**
 * Inside global unicast (2000::/3), what is still not a public host of its own: IETF protocol assignments (Teredo,
 * benchmarking, ORCHID), documentation, and 6to4, whose embedded IPv4 address is checked instead.
 */
const V6_GLOBAL = cidr("2000::/3");
const V6_BLOCKED = ["2001::/23", "2001:db8::/32", "3fff::/20"].map(cidr);
const V6_6TO4 = cidr("2002::/16");

const v4Public = (b: TIpBytes) => !V4_BLOCKED.some(([p, bits]) => inPrefix(b, p, bits));

/** Whether the address (4 or 16 bytes) is a public unicast address the server may call. */
export const isPublicIp = (b: TIpBytes): boolean => {
  if (b.length === 4) return v4Public(b);
  // Loopback, unspecified, IPv4-mapped and -compatible, NAT64, discard, unique-local, link-local and multicast all lie
  // outside 2000::/3.
  if (!inPrefix(b, V6_GLOBAL[0], V6_GLOBAL[1])) return false;
  if (V6_BLOCKED.some(([p, bits]) => inPrefix(b, p, bits))) return false;
  if (inPrefix(b, V6_6TO4[0], V6_6TO4[1])) return v4Public(b.subarray(2, 6));
  return true;
};

/** Whether the text is an IP literal of a public unicast address (false for names and for anything else). */
export const isPublicAddress = (text: string) => {
  const b = parseIp(text);
  return b !== null && isPublicIp(b);
};
