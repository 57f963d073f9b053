import sharp from "sharp";
import { MAX_PHOTO_PIXELS, type TDocumentType } from "../../../shared/schemas/documents";
import { AppError } from "../../errors";

export type TFileKind = "image/jpeg" | "image/png" | "image/webp" | "application/pdf";

const startsWith = (d: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => d[at + i] === b);

/** What the bytes are, by their signature (never by the name or the type the browser gave). */
export const sniff = (d: Uint8Array): TFileKind | null => {
  if (startsWith(d, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(d, [0x52, 0x49, 0x46, 0x46]) && startsWith(d, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  if (startsWith(d, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  return null;
};

const fileIssue = (message: { id: string; message: string; values?: Record<string, unknown> }) =>
  new AppError("BAD_REQUEST", message, { issues: [{ path: "file", message }] });

/**
 * Checks that the file is what it says (a JPEG, PNG, WebP or PDF whose bytes agree with its declared type; a photo is
 * an image), and re-encodes images: turned upright, at most 2,000 px on the longer side, without EXIF or other metadata
 * (a phone's photo carries where it was taken). PDFs are kept as sent.
 */
export const prepareFile = async (
  type: TDocumentType,
  declared: string,
  data: Uint8Array,
): Promise<{ contentType: TFileKind; data: Uint8Array }> => {
  const kind = sniff(data);
  const claimed = declared.split(";")[0]!.trim().toLowerCase().replace("image/jpg", "image/jpeg");
  if (!kind)
    throw fileIssue(/*i18n*/ { id: "error.document.unsupported", message: "file must be a JPEG, PNG, WebP or PDF" });
  if (claimed && claimed !== "application/octet-stream" && claimed !== kind)
    throw fileIssue(
      /*i18n*/ {
        id: "error.document.mismatch",
        message: "file says it is {claimed} but its contents are {actual}",
        values: { claimed, actual: kind },
      },
    );
  if (type === "photo" && kind === "application/pdf")
    throw fileIssue(
      /*i18n*/ { id: "error.document.photoNotImage", message: "A photo must be a JPEG, PNG or WebP image" },
    );
  if (kind === "application/pdf") return { contentType: kind, data };
  try {
    const image = sharp(data, { failOn: "error" })
      .rotate()
      .resize({ width: MAX_PHOTO_PIXELS, height: MAX_PHOTO_PIXELS, fit: "inside", withoutEnlargement: true });
    const out =
      kind === "image/png"
        ? await image.png().toBuffer()
        : kind === "image/webp"
          ? await image.webp({ quality: 82 }).toBuffer()
          : await image.jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    return { contentType: kind, data: new Uint8Array(out) };
  } catch {
    throw fileIssue(/*i18n*/ { id: "error.document.unreadable", message: "file could not be read as an image" });
  }
};
