import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Answers smaller than this go as they are: compressing them saves less than the header costs. */
export const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/json|text\/html|text\/plain)/;

const pick = (header: string | null): "br" | "gzip" | null => {
  const offered = (header ?? "")
    .toLowerCase()
    .split(",")
    .map((p) => p.trim())
    .filter((p) => !/;\s*q=0(\.0*)?$/.test(p))
    .map((p) => p.split(";")[0]);
  if (offered.includes("br")) return "br";
  if (offered.includes("gzip")) return "gzip";
  return null;
};

/**
 * JSON and HTML answers above ~1 KB go compressed when the client takes it (brotli at a fast level, else gzip): a page
 * of loads shrinks about tenfold, which is most of the wait on a 3G phone. Built files are compressed at build time
 * and come with their encoding set, so they pass through.
 */
export const compressResponse = async (req: Request, res: Response): Promise<Response> => {
  if (req.method === "HEAD" || !res.body || res.headers.has("Content-Encoding")) return res;
  if (!COMPRESSIBLE.test(res.headers.get("Content-Type") ?? "")) return res;
  // Caches must keep the encodings apart, whichever one this answer goes in.
  const vary = res.headers.get("Vary");
  if (!vary?.toLowerCase().includes("accept-encoding"))
    res.headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const encoding = pick(req.headers.get("accept-encoding"));
  if (!encoding) return res;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  if (body.byteLength < COMPRESS_MIN_BYTES) return new Response(body, { status: res.status, headers });
  const packed =
    encoding === "br"
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : gzipSync(body, { level: 6 });
  headers.set("Content-Encoding", encoding);
  headers.delete("Content-Length");
  return new Response(packed, { status: res.status, statusText: res.statusText, headers });
};
