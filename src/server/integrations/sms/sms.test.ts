// The SMS adapters against the vendors' emulators: what a send answers, what a refusal for good is (no retry), and
// what a passing failure is (thrown, so the job retries); the number's route to a provider; the configuration's pairs.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SMS_SANDBOX, startSmsEmulators, type TSmsEmulators } from "../../../../emulators/sms/server";
import { loadConfig } from "../../config";
import { createAfroMessageSender } from "./afromessage";
import { smsFrom } from "./registry";
import { createTwilioSender } from "./twilio";

setDefaultTimeout(60_000);

let emu: TSmsEmulators;
beforeAll(() => {
  emu = startSmsEmulators();
});
afterAll(() => emu.stop());

const twilio = (authToken: string = SMS_SANDBOX.twilio.authToken) =>
  createTwilioSender({ baseUrl: emu.urls.twilio, ...SMS_SANDBOX.twilio, authToken, timeoutMs: 5000 });
const afro = (token: string = SMS_SANDBOX.afromessage.token) =>
  createAfroMessageSender({ baseUrl: emu.urls.afromessage, ...SMS_SANDBOX.afromessage, token, timeoutMs: 5000 });

describe("Twilio", () => {
  test("a send is taken (SM id); an invalid number is refused for good; bad credentials, 429 and 5xx throw", async () => {
    const sent = await twilio().send({ to: "+14155550100", body: "hello" });
    expect(sent).toMatchObject({ status: "sent", provider: "twilio" });
    expect((sent as { messageId: string }).messageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio().label).toBe("sandbox");
    expect(await twilio().send({ to: "+1", body: "x" })).toEqual({
      status: "refused",
      provider: "twilio",
      reason: "21211 Invalid 'To' Phone Number: +1",
    });
    await expect(twilio("wrong").send({ to: "+14155550100", body: "x" })).rejects.toThrow(
      "Twilio failed: 20003 Authenticate (HTTP 401)",
    );
    emu.failNext(1, 429);
    await expect(twilio().send({ to: "+14155550100", body: "x" })).rejects.toThrow(/Twilio/);
    emu.failNext(1, 500);
    await expect(twilio().send({ to: "+14155550100", body: "x" })).rejects.toThrow(/HTTP 500/);
  });
});

describe("AfroMessage", () => {
  test("a send is taken; a refusal in a 200 answer is read from the body; a bad token throws", async () => {
    const sent = await afro().send({ to: "+251911234567", body: "selam" });
    expect(sent).toMatchObject({ status: "sent", provider: "afromessage" });
    // The emulator, like AfroMessage, answers HTTP 200 with acknowledge "error": the adapter reads the body.
    expect(await afro().send({ to: "+14155550100", body: "x" })).toEqual({
      status: "refused",
      provider: "afromessage",
      reason: "Invalid phone number: +14155550100",
    });
    await expect(afro("wrong").send({ to: "+251911234567", body: "x" })).rejects.toThrow(
      "AfroMessage failed: Authorization failed (HTTP 401)",
    );
  });
});

describe("routing and configuration", () => {
  test("+251 goes through AfroMessage (Twilio without it), everything else through Twilio", () => {
    const both = smsFrom(loadConfig(emu.env()));
    expect(both.senderFor("+251911234567")?.provider).toBe("afromessage");
    expect(both.senderFor("+14155550100")?.provider).toBe("twilio");
    const { AFROMESSAGE_TOKEN: _t, AFROMESSAGE_IDENTIFIER_ID: _i, ...twilioOnly } = emu.env();
    expect(smsFrom(loadConfig(twilioOnly)).senderFor("+251911234567")?.provider).toBe("twilio");
    const none = smsFrom(loadConfig({}));
    expect(none.senderFor("+251911234567")).toBeNull();
    expect(none.dailyLimit).toBe(500);
  });

  test("credentials that come together are refused alone, naming what is missing", () => {
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: "AC1" })).toThrow(
      "TWILIO_AUTH_TOKEN, TWILIO_FROM: Twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM together",
    );
    expect(() => loadConfig({ AFROMESSAGE_TOKEN: "t" })).toThrow("AFROMESSAGE_IDENTIFIER_ID: AfroMessage needs");
    expect(() => loadConfig({ SMS_DAILY_LIMIT: "many" })).toThrow("SMS_DAILY_LIMIT");
    expect(() => loadConfig({ ...emu.env(), TWILIO_FROM: "MyTess" })).toThrow("TWILIO_FROM");
  });
});
