import { afterAll, expect, test } from "bun:test";
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
