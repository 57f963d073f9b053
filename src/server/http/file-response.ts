/**
 * A stored file as the answer: its own type, a download name, and headers that keep a browser from reading it as
 * anything else (nosniff) or running anything in it (a sandboxed, script-less document if opened on its own).
 */
export const fileResponse = (f: { fileName: string; contentType: string; size: number; stream: ReadableStream }) =>
  new Response(f.stream, {
    headers: {
      "Content-Type": f.contentType,
      "Content-Length": String(f.size),
      "Content-Disposition": `inline; filename="${f.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
