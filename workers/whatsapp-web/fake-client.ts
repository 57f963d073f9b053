// For tests: a stand-in for whatsapp-web.js's Client with the methods and events the bridge uses. WhatsApp Web cannot
// be reached from tests (nor from our machines), so tests play the phone and the people writing to it through this.
import { EventEmitter } from "node:events";
import type { TIncoming, TWebClient } from "./bridge.mjs";

export type TFakeSent = { chatId: string; text: string };

export const createFakeClient = (opts: { registered?: string[] } = {}) => {
  const events = new EventEmitter();
  const registered = new Set(opts.registered ?? []);
  /** Linked ids (`<id>@lid`) and the numbers behind them. */
  const lids = new Map<string, string>();
  const sent: TFakeSent[] = [];
  const waiting: { chatId: string; resolve: (m: TFakeSent) => void }[] = [];
  let failures: Error[] = [];
  let seq = 0;
  const state = { initialized: false, destroyed: false, lookups: 0 };

  const client: TWebClient = {
    on: (event, listener) => events.on(event, listener),
    initialize: async () => {
      state.initialized = true;
    },
    getNumberId: async (number) => {
      state.lookups++;
      const fail = failures.shift();
      if (fail) throw fail;
      return registered.has(number) ? { _serialized: `${number}@c.us` } : null;
    },
    sendMessage: async (chatId, text) => {
      const m = { chatId, text };
      sent.push(m);
      for (const w of waiting.filter((x) => x.chatId === chatId)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(m);
      }
      return { id: { _serialized: `true_${chatId}_FAKE${++seq}` } };
    },
    getContactLidAndPhone: async (ids) => ids.map((lid) => ({ lid, pn: lids.get(lid) })),
    destroy: async () => {
      state.destroyed = true;
    },
    info: null,
  };

  return {
    client,
    state,
    sent,
    /** Numbers (E.164 digits) that are on WhatsApp. */
    register: (...numbers: string[]) => {
      for (const n of numbers) registered.add(n);
    },
    /** Hides `number` behind a linked id, as WhatsApp does for some chats. */
    hideBehindLid: (number: string) => {
      const lid = `${7_000_000_000 + lids.size}@lid`;
      lids.set(lid, `${number}@c.us`);
      return lid;
    },
    /** The next look-ups fail as a broken WhatsApp Web page would. */
    failNext: (...errors: Error[]) => {
      failures = [...failures, ...errors];
    },
    showQr: (qr: string) => events.emit("qr", qr),
    /** The phone scanned the code: WhatsApp Web signs in as `number` and is ready. */
    link: (number: string) => {
      client.info = { wid: { user: number } };
      events.emit("authenticated");
      events.emit("ready");
    },
    refuse: (message: string) => events.emit("auth_failure", message),
    disconnect: (reason: string) => events.emit("disconnected", reason),
    /** Someone writes to the linked number. */
    receive: (m: Partial<TIncoming> & { from: string }) =>
      events.emit("message", {
        type: "chat",
        fromMe: false,
        isStatus: false,
        timestamp: Math.floor(Date.now() / 1000),
        id: { _serialized: `false_${m.from}_IN${++seq}` },
        ...m,
      }),
    /** Resolves with the next message the bridge sends to `chatId`. */
    nextSentTo: (chatId: string) => new Promise<TFakeSent>((resolve) => waiting.push({ chatId, resolve })),
  };
};
export type TFakeClient = ReturnType<typeof createFakeClient>;
