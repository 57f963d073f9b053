import { MAX_DOCUMENT_BYTES, type TDocumentType } from "../../shared/schemas/documents";
import { resizePhoto } from "./image-resize";

/** What the phone can tell before sending: the server checks the bytes again. */
export type TUploadProblem = "type" | "size" | "photoNotImage" | "unreadable";

export type TPreparedUpload = { ok: true; blob: Blob; name: string } | { ok: false; problem: TUploadProblem };

const IMAGE = /^image\//;
const PDF = "application/pdf";

/** What the file inputs offer: the kinds the server takes (JPEG, PNG, WebP, PDF); a camera photo of any kind is made a JPEG. */
export const DOCUMENT_ACCEPT = "image/*,application/pdf,.pdf";

const isPdf = (file: File) => file.type === PDF || (!file.type && /\.pdf$/i.test(file.name));

/**
 * A chosen or photographed file made ready to send as a load document: a photo made small on the phone first (a
 * JPEG of at most 2,000 px, without its EXIF data), a PDF as it is. A file the server would refuse anyway (not an
 * image or PDF, a PDF as a photo, more than 10 MB) is named here, before it waits in a dead zone only to be refused.
 */
export const prepareUpload = async (file: File, type: TDocumentType): Promise<TPreparedUpload> => {
  if (isPdf(file)) {
    if (type === "photo" || type === "pod") return { ok: false, problem: "photoNotImage" };
    if (file.size > MAX_DOCUMENT_BYTES) return { ok: false, problem: "size" };
    return { ok: true, blob: file, name: file.name || `${type}.pdf` };
  }
  if (!IMAGE.test(file.type)) return { ok: false, problem: "type" };
  let blob: Blob;
  try {
    blob = await resizePhoto(file);
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  if (blob.size > MAX_DOCUMENT_BYTES) return { ok: false, problem: "size" };
  const base = file.name.replace(/\.[a-z0-9]{1,5}$/i, "") || type;
  return { ok: true, blob, name: `${base}.jpg` };
};
