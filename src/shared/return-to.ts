// Where to send the browser after sign-in: only a path on this site. A path is checked the way a browser would read
// it: backslashes, control characters (raw or percent-encoded) and encoded slashes are refused, and the path is resolved
// against the app's origin, so "/\evil.test", "/%09/evil.test" and "//evil.test" all come back as "/".

const UNSAFE_CHARS = /[\\\u0000-\u001f\u007f]/;
const ENCODED_SLASH = /%(2f|5c)/i;

export const safeReturnTo = (value: string | null | undefined, origin = "https://mytess.invalid"): string => {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return "/";
  if (UNSAFE_CHARS.test(value) || ENCODED_SLASH.test(value)) return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return "/";
  }
  if (UNSAFE_CHARS.test(decoded) || decoded.startsWith("//")) return "/";
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (url.origin !== base.origin) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
};
