import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let driver2: TClient;
let anon: TClient;
let loadId: number;

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

const photoWithGps = () =>
  sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#3366aa" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "9/1 1/1 30/1", GPSLongitudeRef: "E", GPSLongitude: "38/1 45/1 0/1" },
    })
    .toBuffer();

const signaturePng = () =>
  sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();

/** A multipart upload as a browser sends it, with the client's session. */
const upload = async (
  who: TClient,
  id: number | string,
  fields: { type?: string; file?: { data: Uint8Array; name: string; type: string } },
  key?: string,
) => {
  const form = new FormData();
  if (fields.type !== undefined) form.set("type", fields.type);
  if (fields.file)
    form.set("file", new File([new Uint8Array(fields.file.data)], fields.file.name, { type: fields.file.type }));
  const res = await t.app.handle(
    new Request(`http://localhost/api/loads/${id}/documents`, {
      method: "POST",
      headers: {
        ...(who.cookie ? { Cookie: who.cookie } : {}),
        ...(key ? { "Idempotency-Key": key } : {}),
        "X-Forwarded-For": "10.0.0.1",
      },
      body: form,
    }),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
};

const download = async (who: TClient, id: number) => {
  const res = await t.app.handle(
    new Request(`http://localhost/api/documents/${id}`, {
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1" },
    }),
  );
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
};

beforeEach(async () => {
  t = await createTestApp();
  [shipper, otherShipper, driver, driver2, anon] = [1, 2, 3, 4, 5].map(() => createClient(t));
  await registerUser(shipper, "shipper");
  await registerUser(otherShipper, "shipper");
  await registerUser(driver, "driver");
  await registerUser(driver2, "driver");
  loadId = (await shipper.post("/api/loads", loadInput())).json.id;
  const bid = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
  await shipper.post(`/api/bids/${bid.id}/accept`);
});

describe("load documents", () => {
  test("a photo is re-encoded: at most 2,000 px, its GPS and other EXIF gone; both parties list and open it", async () => {
    const original = await photoWithGps();
    expect(await exifr.gps(original)).toMatchObject({ latitude: 9.025, longitude: 38.75 });
    const res = await upload(driver, loadId, {
      type: "photo",
      file: { data: original, name: "IMG_0001.jpg", type: "image/jpeg" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ loadId, type: "photo", contentType: "image/jpeg", fileName: "IMG_0001.jpg" });
    const got = await download(shipper, res.json.id);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/jpeg");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-disposition")).toContain('filename="IMG_0001.jpg"');
    const meta = await sharp(got.body).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 1000]);
    expect(meta.exif).toBeUndefined();
    expect(await exifr.gps(got.body)).toBeUndefined();
    expect(got.body.byteLength).toBe(res.json.size);
    const listed = await shipper.get(`/api/loads/${loadId}/documents`);
    expect(listed.json.map((d: { id: number }) => d.id)).toEqual([res.json.id]);
    expect((await driver.get(`/api/loads/${loadId}/documents`)).json).toHaveLength(1);
  });

  test("a PDF is kept as sent; a PNG signature stays a PNG", async () => {
    const pdf = await upload(shipper, loadId, {
      type: "bol",
      file: { data: PDF, name: "bol.pdf", type: "application/pdf" },
    });
    expect(pdf.status).toBe(201);
    const got = await download(driver, pdf.json.id);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(got.body).equals(Buffer.from(PDF))).toBe(true);
    const sig = await upload(driver, loadId, {
      type: "pod",
      file: { data: await signaturePng(), name: "signature.png", type: "image/png" },
    });
    expect(sig.json.contentType).toBe("image/png");
  });

  test("another account gets 404 for the list, the upload and the file; signed out gets 401", async () => {
    const doc = (
      await upload(driver, loadId, { type: "bol", file: { data: PDF, name: "b.pdf", type: "application/pdf" } })
    ).json;
    for (const who of [otherShipper, driver2]) {
      expect((await who.get(`/api/loads/${loadId}/documents`)).status).toBe(404);
      expect(
        (await upload(who, loadId, { type: "bol", file: { data: PDF, name: "b.pdf", type: "application/pdf" } }))
          .status,
      ).toBe(404);
      expect((await download(who, doc.id)).status).toBe(404);
    }
    expect((await download(shipper, doc.id + 1000)).status).toBe(404);
    expect((await anon.get(`/api/loads/${loadId}/documents`)).status).toBe(401);
    expect(
      (await upload(anon, loadId, { type: "bol", file: { data: PDF, name: "b.pdf", type: "application/pdf" } })).status,
    ).toBe(401);
    expect((await download(anon, doc.id)).status).toBe(401);
    expect(await t.rows("SELECT id FROM load_documents")).toHaveLength(1);
  });

  test("a file sent again with its Idempotency-Key (the answer was lost) is stored once, also when both arrive at once", async () => {
    const photo = { data: await photoWithGps(), name: "pod.jpg", type: "image/jpeg" };
    const first = await upload(driver, loadId, { type: "photo", file: photo }, "q-photo-0001");
    expect(first.status).toBe(201);
    const again = await upload(driver, loadId, { type: "photo", file: photo }, "q-photo-0001");
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    const [a, b] = await Promise.all([
      upload(driver, loadId, { type: "photo", file: photo }, "q-photo-0002"),
      upload(driver, loadId, { type: "photo", file: photo }, "q-photo-0002"),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).toBe(b.json.id);
    // Without a key every upload is its own document.
    await upload(driver, loadId, { type: "photo", file: photo });
    const list = (await driver.get(`/api/loads/${loadId}/documents`)).json;
    expect(list.map((d: { id: number }) => d.id)).toEqual([first.json.id, a.json.id, expect.any(Number)]);
    // Only the documents' files are in storage: the copy that lost the race took its file back out.
    const dir = (t.config.storage as { dir: string }).dir;
    const files = readdirSync(join(dir, "loads", String(loadId), "documents")).filter((f) => !f.endsWith(".meta.json"));
    expect(files).toHaveLength(3);
    // The key is the uploader's: the shipper may use the same one; on another load it is a 422 naming the header.
    expect((await upload(shipper, loadId, { type: "photo", file: photo }, "q-photo-0001")).status).toBe(201);
    const otherLoad = (await shipper.post("/api/loads", loadInput())).json.id;
    const bid = (await driver.post(`/api/loads/${otherLoad}/bids`, { amount: 900 })).json.bid;
    await shipper.post(`/api/bids/${bid.id}/accept`);
    const reused = await upload(driver, otherLoad, { type: "photo", file: photo }, "q-photo-0001");
    expect(reused.status).toBe(422);
    expect(reused.json.issues[0].path).toBe("Idempotency-Key");
    const badKey = await upload(driver, loadId, { type: "photo", file: photo }, "short");
    expect(badKey.status).toBe(400);
    expect(badKey.json.message).toContain("Idempotency-Key must be 8 to 128");
  });

  test("bad input is a 400 naming the field, and nothing is stored", async () => {
    const jpeg = await photoWithGps();
    const cases: [Parameters<typeof upload>[2], string, string][] = [
      [
        { file: { data: PDF, name: "b.pdf", type: "application/pdf" } },
        "type",
        "type must be one of bol, pod, photo, other",
      ],
      [{ type: "invoice", file: { data: PDF, name: "b.pdf", type: "application/pdf" } }, "type", "type must be one of"],
      [{ type: "bol" }, "file", "file is required"],
      [
        {
          type: "bol",
          file: {
            data: new TextEncoder().encode("<html><script>alert(1)</script>"),
            name: "x.pdf",
            type: "application/pdf",
          },
        },
        "file",
        "file must be a JPEG, PNG, WebP or PDF",
      ],
      [
        { type: "photo", file: { data: PDF, name: "x.jpg", type: "image/jpeg" } },
        "file",
        "file says it is image/jpeg but its contents are application/pdf",
      ],
      [
        { type: "photo", file: { data: PDF, name: "x.pdf", type: "application/pdf" } },
        "file",
        "A photo must be a JPEG, PNG or WebP image",
      ],
      [
        { type: "photo", file: { data: jpeg.subarray(0, 200), name: "cut.jpg", type: "image/jpeg" } },
        "file",
        "file could not be read as an image",
      ],
    ];
    for (const [fields, path, message] of cases) {
      const res = await upload(driver, loadId, fields);
      expect(res.status).toBe(400);
      expect(res.json.issues?.[0]?.path ?? res.json.issues?.[0]?.path).toBe(path);
      expect(res.json.message).toContain(message);
    }
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PDF);
    const tooBig = await upload(driver, loadId, {
      type: "bol",
      file: { data: big, name: "big.pdf", type: "application/pdf" },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.message).toContain("file must be at most 10 MB");
    const wayTooBig = await upload(driver, loadId, {
      type: "bol",
      file: { data: new Uint8Array(11 * 1024 * 1024), name: "big.pdf", type: "application/pdf" },
    });
    expect(wayTooBig.status).toBe(413);
    const notForm = await driver.post(`/api/loads/${loadId}/documents`, { type: "bol" });
    expect(notForm.status).toBe(400);
    expect(notForm.json.message).toBe("The request body must be multipart/form-data");
    expect(
      (await upload(driver, "abc", { type: "bol", file: { data: PDF, name: "b.pdf", type: "application/pdf" } }))
        .status,
    ).toBe(400);
    expect(await t.rows("SELECT id FROM load_documents")).toEqual([]);
  });
});

describe("delivered with a proof of delivery", () => {
  const pickup = () => driver.post(`/api/loads/${loadId}/pickup`);

  test("a photo and the receiver's name: delivered, with both on the timeline", async () => {
    await pickup();
    const photo = (
      await upload(driver, loadId, {
        type: "photo",
        file: { data: await photoWithGps(), name: "p.jpg", type: "image/jpeg" },
      })
    ).json;
    const res = await driver.post(`/api/loads/${loadId}/delivery`, {
      receiverName: "Almaz Tesfaye",
      documentIds: [photo.id],
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("delivered");
    const last = (await shipper.get(`/api/loads/${loadId}/timeline`)).json.at(-1);
    expect(last).toMatchObject({
      kind: "delivered",
      detail: { receiverName: "Almaz Tesfaye", documentIds: [photo.id] },
    });
  });

  test("a drawn signature (PNG) counts as the proof", async () => {
    await pickup();
    const sig = (
      await upload(driver, loadId, {
        type: "pod",
        file: { data: await signaturePng(), name: "s.png", type: "image/png" },
      })
    ).json;
    expect(
      (await driver.post(`/api/loads/${loadId}/delivery`, { receiverName: "Bekele", documentIds: [sig.id] })).json
        .status,
    ).toBe("delivered");
  });

  test("without a name or a proof, with a bill of lading or another load's photo: 400 naming the field, still in transit", async () => {
    await pickup();
    const bol = (
      await upload(driver, loadId, { type: "bol", file: { data: PDF, name: "b.pdf", type: "application/pdf" } })
    ).json;
    const other = (await shipper.post("/api/loads", loadInput())).json.id;
    const otherPhoto = (
      await upload(shipper, other, {
        type: "photo",
        file: { data: await signaturePng(), name: "s.png", type: "image/png" },
      })
    ).json;
    const cases: [Record<string, unknown>, string][] = [
      [{ documentIds: [bol.id] }, "receiverName"],
      [{ receiverName: "  ", documentIds: [bol.id] }, "receiverName"],
      [{ receiverName: "A" }, "documentIds"],
      [{ receiverName: "A", documentIds: [] }, "documentIds"],
      [{ receiverName: "A", documentIds: [bol.id] }, "documentIds"],
      [{ receiverName: "A", documentIds: [otherPhoto.id] }, "documentIds"],
    ];
    for (const [body, path] of cases) {
      const res = await driver.post(`/api/loads/${loadId}/delivery`, body);
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe(path);
    }
    expect((await shipper.get(`/api/loads/${loadId}`)).json.status).toBe("in_transit");
  });

  test("only the assigned driver records the delivery: another driver 404, the shipper 403, signed out 401", async () => {
    await pickup();
    const photo = (
      await upload(driver, loadId, {
        type: "photo",
        file: { data: await signaturePng(), name: "s.png", type: "image/png" },
      })
    ).json;
    const body = { receiverName: "A", documentIds: [photo.id] };
    expect((await driver2.post(`/api/loads/${loadId}/delivery`, body)).status).toBe(404);
    expect((await shipper.post(`/api/loads/${loadId}/delivery`, body)).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/delivery`, body)).status).toBe(401);
    expect((await shipper.get(`/api/loads/${loadId}`)).json.status).toBe("in_transit");
  });
});
