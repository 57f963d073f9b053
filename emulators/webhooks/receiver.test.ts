import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signatureHeader } from "../../src/server/modules/webhooks/deliver";
import { startWebhookReceiver } from "./receiver";

const receiver = startWebhookReceiver();
afterAll(() => receiver.close());

const token = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
const post = (path: string, body: string, signature: string) =>
  fetch(`${receiver.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "MyTess-Event": "load.picked_up", "MyTess-Signature": signature },
    body,
  });

test("a delivery signed with the endpoint's secret verifies (200); another secret, a changed body or an old time do not (400)", async () => {
  const tok = token();
  const secret = "whsec_right";
  const put = await fetch(`${receiver.url}/r/${tok}/secrets`, { method: "PUT", body: JSON.stringify({ secret }) });
  expect(put.status).toBe(204);
  const body = JSON.stringify({ id: "evt_1", type: "load.picked_up", data: { loadId: 7 } });
  const now = Math.floor(Date.now() / 1000);

  const good = await post(`/r/${tok}`, body, signatureHeader(secret, body, now));
  expect(good.status).toBe(200);
  const before = receiver.received.length;
  const bad = await post(`/r/${tok}`, body, signatureHeader("whsec_wrong", body, now));
  expect(bad.status).toBe(400);
  const changed = await post(`/r/${tok}`, `${body} `, signatureHeader(secret, body, now));
  expect(changed.status).toBe(400);
  const stale = await post(`/r/${tok}`, body, signatureHeader(secret, body, now - 301));
  expect(stale.status).toBe(400);

  const mine = receiver.received.filter((r) => r.receiver === tok);
  expect(mine.map((r) => r.signatureValid)).toEqual([true, false, false, false]);
  expect(mine[0]).toMatchObject({ event: "load.picked_up", body });
  expect((await receiver.waitFor(tok, { after: before })).signatureValid).toBe(false);
});

test("a path no endpoint was registered at, or not a receiver's, is 404 and nothing is kept", async () => {
  const before = receiver.received.length;
  expect((await post(`/r/${token()}`, "{}", "t=1,v1=00")).status).toBe(404);
  expect((await post("/r/short", "{}", "t=1,v1=00")).status).toBe(404);
  expect((await fetch(`${receiver.url}/r/${token()}/secrets`, { method: "PUT", body: "{}" })).status).toBe(400);
  expect(receiver.received.length).toBe(before);
});

test("with a folder, a restart keeps the receivers: the same port, and deliveries to one registered before still verify", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mytess-receiver-restart-"));
  try {
    const first = startWebhookReceiver({ dir });
    const tok = token();
    const secret = "whsec_kept";
    expect(
      (await fetch(`${first.url}/r/${tok}/secrets`, { method: "PUT", body: JSON.stringify({ secret }) })).status,
    ).toBe(204);
    expect(statSync(join(dir, tok, "secrets")).mode & 0o777).toBe(0o600);
    await first.close();

    const second = startWebhookReceiver({ dir });
    try {
      expect(second.url).toBe(first.url);
      const body = JSON.stringify({ id: "evt_2", type: "load.delivered", data: { loadId: 8 } });
      const now = Math.floor(Date.now() / 1000);
      const send = (signature: string) =>
        fetch(`${second.url}/r/${tok}`, { method: "POST", headers: { "MyTess-Signature": signature }, body });
      expect((await send(signatureHeader(secret, body, now))).status).toBe(200);
      expect((await send(signatureHeader("whsec_other", body, now))).status).toBe(400);
      expect(second.received.map((r) => r.signatureValid)).toEqual([true, false]);
      // The secrets file is not a delivery: the folder lists the two deliveries beside it.
      expect(readdirSync(join(dir, tok)).filter((n) => n.endsWith(".json"))).toHaveLength(2);
      // A receiver never given a secret is still unknown after the restart.
      expect((await fetch(`${second.url}/r/${token()}`, { method: "POST", body })).status).toBe(404);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("with a folder whose remembered port is taken, the receiver starts on another one and remembers that", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mytess-receiver-port-"));
  try {
    writeFileSync(join(dir, "port"), String(receiver.port));
    const other = startWebhookReceiver({ dir });
    try {
      expect(other.port).not.toBe(receiver.port);
      expect(await Bun.file(join(dir, "port")).text()).toBe(String(other.port));
    } finally {
      await other.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
