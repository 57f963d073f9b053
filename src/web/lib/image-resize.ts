import { MAX_PHOTO_PIXELS } from "../../shared/schemas/documents";

/**
 * A phone's photo made small enough to send over a weak network: at most 2,000 px on the longer side (what the server
 * keeps anyway), as a JPEG. The canvas drops the EXIF data (where the photo was taken) before it leaves the phone;
 * `createImageBitmap` applies the photo's orientation first, so it stays upright.
 */
export const resizePhoto = async (file: Blob, max = MAX_PHOTO_PIXELS, quality = 0.85): Promise<Blob> => {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    const scale = Math.min(1, max / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d canvas");
    ctx.drawImage(bitmap, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("toBlob failed"))), "image/jpeg", quality),
    );
  } finally {
    bitmap.close();
  }
};
