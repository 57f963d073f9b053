// Where to send the browser after sign-in: only a path on this site. A path is checked the way a browser would read
// it: backslashes, control characters (raw or percent-encoded) and encoded slashes are refused, and the path is resolved
// against the app's origin, so "/\evil.test", "/%09/evil.test" and "//evil.test" all come back as "/".

const hasUnsafeChars = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return true; // control characters and the backslash
  }
  return false;
};
const ENCODED_SLASH = /%(2f|5c)/i;

export const safeReturnTo = (value: string | null | undefined, origin = "https://mytess.invalid"): string => {
  if (!value?.startsWith("/") || value.startsWith("//")) return "/";
  if (hasUnsafeChars(value) || ENCODED_SLASH.test(value)) return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return "/";
  }
  if (hasUnsafeChars(decoded) || decoded.startsWith("//")) return "/";
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
