// Telegram Bot API emulator: POST|GET /bot<token>/<method> with JSON, form or query parameters, answering
// {"ok":true,"result":…} or {"ok":false,"error_code":…,"description":…,"parameters"?}. Tests play the users: they
// write to the bot, press its buttons, block it, and read what it sent.

type TUser = { id: number; is_bot: false; first_name: string; username?: string; language_code?: string };
type TMessage = {
  message_id: number;
  from: TUser | typeof BOT_USER;
  chat: { id: number; type: "private"; first_name: string; username?: string };
  date: number;
  text: string;
  entities?: { type: string; offset: number; length: number }[];
  reply_markup?: { inline_keyboard: Record<string, unknown>[][] };
};
type TUpdate = { update_id: number } & Record<string, unknown>;
type TChatMode = { kind: "ok" } | { kind: "blocked" } | { kind: "flood"; retryAfter: number } | { kind: "hold" };
type TParams = Record<string, unknown>;

const BOT_USER = {
  id: 7000000001,
  is_bot: true as const,
  first_name: "MyTess",
  username: "mytess_sandbox_bot",
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};
// Telegram holds a long poll for at most 50 s; tests never wait that long, demo clients might.
const MAX_POLL_S = 50;

const reply = (result: unknown) => Response.json({ ok: true, result });
const fail = (code: number, description: string, parameters?: Record<string, unknown>) =>
  Response.json({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) }, { status: code });

const readParams = async (req: Request, url: URL): Promise<TParams> => {
  const params: TParams = Object.fromEntries(url.searchParams);
  if (req.method !== "POST") return params;
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const text = await req.text();
    if (text.trim()) Object.assign(params, JSON.parse(text));
  } else if (type.includes("form")) {
    // Files are not emulated: a part that is not text is recorded by its presence only.
    for (const [k, v] of (await req.formData()).entries()) params[k] = typeof v === "string" ? v : "(file)";
  }
  // Form and query values arrive as strings: objects such as reply_markup are JSON inside them.
  for (const k of ["reply_markup", "allowed_updates", "link_preview_options"])
    if (typeof params[k] === "string") params[k] = JSON.parse(params[k] as string);
  return params;
};

const validKeyboard = (markup: unknown): string | null => {
  if (markup === undefined) return null;
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (!Array.isArray(rows) || !rows.every(Array.isArray))
    return "Bad Request: can't parse reply keyboard markup JSON object";
  for (const b of rows.flat() as Record<string, unknown>[]) {
    if (typeof b.text !== "string" || !b.text)
      return "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard";
    if (b.callback_data !== undefined) {
      const len = Buffer.byteLength(String(b.callback_data));
      if (len < 1 || len > 64) return "Bad Request: BUTTON_DATA_INVALID";
    } else if (typeof b.url === "string") {
      if (!/^(https?|tg):\/\//.test(b.url) || /^http:\/\/(localhost|127\.)/.test(b.url))
        return `Bad Request: inline keyboard button URL '${b.url}' is invalid: Wrong HTTP URL`;
    } else
      return "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must have exactly one optional field";
  }
  return null;
};

export const createTelegramEmulator = (opts: { token: string }) => {
  const users = new Map<number, TUser>();
  const modes = new Map<number, TChatMode>();
  const sent = new Map<number, TMessage[]>();
  const queries = new Map<string, { answered: boolean; text?: string; show_alert?: boolean }>();
  let updates: TUpdate[] = [];
  let nextUpdateId = 100_000_001;
  let nextMessageId = 1;
  let webhook: { url: string; secretToken?: string } | null = null;
  const waiters = new Set<() => void>();
  /** Sends to a chat in "hold" mode wait here until its mode changes (a slow Telegram, as tests need one). */
  const held = new Map<number, (() => void)[]>();
  const deliveries = new Set<Promise<unknown>>();
  /** Live locations shared, by message id: who shared them, when, for how long. */
  const liveLocations = new Map<number, { chatId: number; date: number; livePeriod: number }>();

  const now = () => Math.floor(Date.now() / 1000);
  const chatOf = (u: TUser) => ({ id: u.id, type: "private" as const, first_name: u.first_name, username: u.username });

  const push = (update: Record<string, unknown>) => {
    const u = { update_id: nextUpdateId++, ...update };
    if (webhook) {
      const { url, secretToken } = webhook;
      const p = fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(secretToken ? { "X-Telegram-Bot-Api-Secret-Token": secretToken } : {}),
        },
        body: JSON.stringify(u),
      })
        .then((r) => r.body?.cancel())
        .catch(() => undefined)
        .finally(() => deliveries.delete(p));
      deliveries.add(p);
    } else {
      updates.push(u);
      for (const w of waiters) w();
    }
    return u;
  };

  const control = {
    /** A person who has started the bot; sending to anyone else is "chat not found". */
    addUser: (u: { id: number; firstName: string; username?: string; languageCode?: string }) => {
      const user: TUser = {
        id: u.id,
        is_bot: false,
        first_name: u.firstName,
        username: u.username,
        language_code: u.languageCode,
      };
      users.set(u.id, user);
      return user;
    },
    /** The user writes to the bot (commands such as "/start link_abc" carry a bot_command entity). */
    userSays: (chatId: number, text: string) => {
      const from = users.get(chatId) ?? control.addUser({ id: chatId, firstName: `User ${chatId}` });
      const command = /^\/\w+/.exec(text);
      const message: TMessage = {
        message_id: nextMessageId++,
        from,
        chat: chatOf(from),
        date: now(),
        text,
        ...(command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : {}),
      };
      return push({ message });
    },
    /**
     * The user shares a live location (a `message` whose `location` has `live_period`, seconds from the message's
     * date); returns the message id its moves edit.
     */
    userSharesLiveLocation: (
      chatId: number,
      at: { latitude: number; longitude: number; horizontalAccuracy?: number },
      livePeriod = 3600,
    ) => {
      const from = users.get(chatId) ?? control.addUser({ id: chatId, firstName: `User ${chatId}` });
      const message_id = nextMessageId++;
      const date = now();
      liveLocations.set(message_id, { chatId, date, livePeriod });
      push({
        message: {
          message_id,
          from,
          chat: chatOf(from),
          date,
          location: {
            latitude: at.latitude,
            longitude: at.longitude,
            ...(at.horizontalAccuracy != null ? { horizontal_accuracy: at.horizontalAccuracy } : {}),
            live_period: livePeriod,
          },
        },
      });
      return message_id;
    },
    /**
     * The live location moves: an `edited_message` with `edit_date` (seconds; `editDate` lets a test set it). When the
     * user stops sharing, Telegram's last edit carries no `live_period` (`stopped`).
     */
    userMovesLiveLocation: (
      chatId: number,
      messageId: number,
      at: { latitude: number; longitude: number; heading?: number },
      opts: { editDate?: number; stopped?: boolean } = {},
    ) => {
      const from = users.get(chatId);
      const live = liveLocations.get(messageId);
      if (!from || !live || live.chatId !== chatId) throw new Error(`no live location ${messageId} in chat ${chatId}`);
      push({
        edited_message: {
          message_id: messageId,
          from,
          chat: chatOf(from),
          date: live.date,
          edit_date: opts.editDate ?? now(),
          location: {
            latitude: at.latitude,
            longitude: at.longitude,
            ...(opts.stopped ? {} : { live_period: live.livePeriod }),
            ...(at.heading != null && !opts.stopped ? { heading: at.heading } : {}),
          },
        },
      });
    },
    /** The user presses an inline button under one of the bot's messages; returns the callback query id. */
    pressButton: (chatId: number, messageId: number, data: string) => {
      const from = users.get(chatId);
      const message = sent.get(chatId)?.find((m) => m.message_id === messageId);
      if (!from || !message) throw new Error(`no message ${messageId} in chat ${chatId}`);
      const id = String(BigInt(chatId) * 1000n + BigInt(queries.size + 1));
      queries.set(id, { answered: false });
      push({ callback_query: { id, from, message, chat_instance: `ci${chatId}`, data } });
      return id;
    },
    /**
     * "blocked": 403 as when the user blocked the bot; "flood": 429 with retry_after; "hold": sends to the chat wait
     * without an answer until the mode changes again.
     */
    setMode: (chatId: number, mode: TChatMode) => {
      modes.set(chatId, mode);
      if (mode.kind === "hold") return;
      for (const release of held.get(chatId) ?? []) release();
      held.delete(chatId);
    },
    /** Sends waiting in "hold" mode for a chat. */
    heldSends: (chatId: number) => held.get(chatId)?.length ?? 0,
    /** What the bot sent to a chat, as it looks now (after edits). */
    sent: (chatId: number) => sent.get(chatId) ?? [],
    callbackAnswer: (id: string) => queries.get(id),
    webhook: () => webhook,
    pendingUpdates: () => updates.length,
    /** Waits for webhook deliveries still under way. */
    settle: () => Promise.all([...deliveries]),
    close: () => {
      for (const w of waiters) w();
      for (const [chatId] of held) control.setMode(chatId, { kind: "ok" });
    },
  };

  const methods: Record<string, (p: TParams) => Promise<Response> | Response> = {
    getMe: () => reply(BOT_USER),
    getUpdates: async (p) => {
      if (webhook)
        return fail(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        );
      const offset = Number(p.offset ?? 0);
      if (offset > 0) updates = updates.filter((u) => u.update_id >= offset);
      else if (offset < 0) updates = updates.slice(offset);
      const timeout = Math.min(Number(p.timeout ?? 0), MAX_POLL_S);
      if (!updates.length && timeout > 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, timeout * 1000);
          waiters.add(done);
        });
      }
      const limit = Math.min(Math.max(Number(p.limit ?? 100), 1), 100);
      return reply(updates.slice(0, limit));
    },
    sendMessage: async (p) => {
      const chatId = Number(p.chat_id);
      const user = users.get(chatId);
      if (!user) return fail(400, "Bad Request: chat not found");
      while (modes.get(chatId)?.kind === "hold")
        await new Promise<void>((resolve) => held.set(chatId, [...(held.get(chatId) ?? []), resolve]));
      const mode = modes.get(chatId) ?? { kind: "ok" };
      if (mode.kind === "blocked") return fail(403, "Forbidden: bot was blocked by the user");
      if (mode.kind === "flood")
        return fail(429, `Too Many Requests: retry after ${mode.retryAfter}`, { retry_after: mode.retryAfter });
      const text = typeof p.text === "string" ? p.text : "";
      // Entities are stripped before Telegram measures the text, so measure it the same way.
      const plain = p.parse_mode === "HTML" ? text.replace(/<[^>]+>/g, "").replace(/&(lt|gt|amp|quot);/g, "x") : text;
      if (!plain.trim()) return fail(400, "Bad Request: message text is empty");
      if (plain.length > 4096) return fail(400, "Bad Request: message is too long");
      const bad = validKeyboard(p.reply_markup);
      if (bad) return fail(400, bad);
      const message: TMessage = {
        message_id: nextMessageId++,
        from: BOT_USER,
        chat: chatOf(user),
        date: now(),
        text:
          p.parse_mode === "HTML"
            ? text
                .replace(/<[^>]+>/g, "")
                .replaceAll("&lt;", "<")
                .replaceAll("&gt;", ">")
                .replaceAll("&amp;", "&")
            : text,
        ...(p.reply_markup ? { reply_markup: p.reply_markup as TMessage["reply_markup"] } : {}),
      };
      sent.set(chatId, [...(sent.get(chatId) ?? []), message]);
      return reply(message);
    },
    answerCallbackQuery: (p) => {
      const q = queries.get(String(p.callback_query_id));
      if (!q || q.answered)
        return fail(400, "Bad Request: query is too old and response timeout expired or query ID is invalid");
      Object.assign(q, { answered: true, text: p.text as string | undefined, show_alert: Boolean(p.show_alert) });
      return reply(true);
    },
    editMessageReplyMarkup: (p) => {
      const message = sent.get(Number(p.chat_id))?.find((m) => m.message_id === Number(p.message_id));
      if (!message) return fail(400, "Bad Request: message to edit not found");
      const bad = validKeyboard(p.reply_markup);
      if (bad) return fail(400, bad);
      const next = p.reply_markup as TMessage["reply_markup"];
      if (JSON.stringify(next?.inline_keyboard ?? []) === JSON.stringify(message.reply_markup?.inline_keyboard ?? []))
        return fail(
          400,
          "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
        );
      if (next?.inline_keyboard?.length) message.reply_markup = next;
      else delete message.reply_markup;
      return reply(message);
    },
    setWebhook: (p) => {
      if (typeof p.url !== "string" || !p.url) {
        webhook = null;
        return reply(true);
      }
      webhook = { url: p.url, secretToken: typeof p.secret_token === "string" ? p.secret_token : undefined };
      return reply(true);
    },
    deleteWebhook: (p) => {
      webhook = null;
      if (p.drop_pending_updates === true || p.drop_pending_updates === "true") updates = [];
      return reply(true);
    },
    getWebhookInfo: () =>
      reply({ url: webhook?.url ?? "", has_custom_certificate: false, pending_update_count: updates.length }),
  };

  const handle = async (req: Request) => {
    const url = new URL(req.url);
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (!m) return fail(404, "Not Found");
    if (m[1] !== opts.token) return fail(401, "Unauthorized");
    const method = Object.keys(methods).find((k) => k.toLowerCase() === m[2].toLowerCase());
    if (!method) return fail(404, "Not Found: method not found");
    let params: TParams;
    try {
      params = await readParams(req, url);
    } catch {
      return fail(400, "Bad Request: can't parse JSON object");
    }
    return methods[method](params);
  };

  return { handle, control };
};
