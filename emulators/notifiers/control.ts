// HTTP doors to the emulators' test controls under /_emulator/, for the standalone servers and demo mode, where no
// test holds the control objects: play a user, read what they received.
import type { createTelegramEmulator } from "./telegram";
import type { createPushServiceEmulator } from "./web-push";
import type { createWhatsAppEmulator } from "./whatsapp";

type TRoute = (m: RegExpExecArray, body: Record<string, unknown>) => unknown | Promise<unknown>;
type TRoutes = [method: string, path: RegExp, run: TRoute][];

export const withControl =
  (routes: TRoutes, handle: (req: Request) => Promise<Response> | Response) => async (req: Request) => {
    const { pathname } = new URL(req.url);
    if (!pathname.startsWith("/_emulator/")) return handle(req);
    for (const [method, path, run] of routes) {
      const m = path.exec(pathname);
      if (!m || req.method !== method) continue;
      const text = req.method === "GET" ? "" : await req.text();
      try {
        return Response.json((await run(m, text.trim() ? JSON.parse(text) : {})) ?? { ok: true });
      } catch (err) {
        return Response.json({ error: (err as Error).message }, { status: 400 });
      }
    }
    return Response.json({ error: "no such control" }, { status: 404 });
  };

export const telegramControlRoutes = (c: ReturnType<typeof createTelegramEmulator>["control"]): TRoutes => [
  ["POST", /^\/_emulator\/chats\/(-?\d+)\/messages$/, (m, b) => c.userSays(Number(m[1]), String(b.text ?? ""))],
  [
    "POST",
    /^\/_emulator\/chats\/(-?\d+)\/buttons$/,
    (m, b) => ({ callbackQueryId: c.pressButton(Number(m[1]), Number(b.messageId), String(b.data ?? "")) }),
  ],
  ["PUT", /^\/_emulator\/chats\/(-?\d+)\/mode$/, (m, b) => void c.setMode(Number(m[1]), b as never)],
  ["GET", /^\/_emulator\/chats\/(-?\d+)\/sent$/, (m) => c.sent(Number(m[1]))],
];

export const whatsappControlRoutes = (c: ReturnType<typeof createWhatsAppEmulator>["control"]): TRoutes => [
  ["PUT", /^\/_emulator\/webhook$/, (_, b) => c.setWebhookUrl(typeof b.url === "string" ? b.url : null)],
  [
    "POST",
    /^\/_emulator\/inbound$/,
    async (_, b) => ({ webhookStatus: await c.userSays(String(b.from), String(b.text ?? ""), b.name as string) }),
  ],
  ["GET", /^\/_emulator\/sent$/, () => c.sent()],
];

export const pushControlRoutes = (c: ReturnType<typeof createPushServiceEmulator>["control"]): TRoutes => [
  [
    "POST",
    /^\/_emulator\/subscriptions$/,
    (_, b) => c.subscribe({ applicationServerKey: b.applicationServerKey as string | undefined }),
  ],
  ["GET", /^\/_emulator\/subscriptions\/([\w-]+)\/messages$/, (m) => c.received(m[1])],
  ["PUT", /^\/_emulator\/subscriptions\/([\w-]+)\/mode$/, (m, b) => c.setMode(m[1], b as never)],
];
