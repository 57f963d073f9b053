// One context for every door: a bot or the worker calls the same procedures as the web with createContext and no
// HTTP parts; what needs HTTP (a session cookie) refuses cleanly instead of running on placeholders.

import { afterEach, expect, test } from "bun:test";
import { openTestDb } from "../../../db/client";
import { users } from "../../../db/tables";
import { loadConfig } from "../config";
import { carriersFromEnv } from "../integrations/carriers/registry";
import { fxSourceFrom } from "../integrations/fx/registry";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { noPayments } from "../integrations/payments/services";
import { smsFrom } from "../integrations/sms/registry";
import { storeServicesFrom } from "../integrations/stores/services";
import { logger } from "../logger";
import { storageFrom } from "../storage/storage";
import {
  closeTestApps,
  createClient,
  createTestApp,
  registerUser,
  testBoardServices,
  testStorageDir,
} from "../testing";
import { createContext } from "./context";
import { createCaller } from "./root";

afterEach(closeTestApps);

test("a non-HTTP door (a bot) acts as its user through the same procedures; signing up there is refused, nothing made", async () => {
  const t = await createTestApp();
  const web = createClient(t);
  const shipper = await registerUser(web, "shipper");
  const { db } = t;
  const [user] = await db.select().from(users);
  const boards = testBoardServices();
  const services = {
    carriers: carriersFromEnv({}),
    notifiers: notifiersFromEnv({}, { vapidKeyFile: null }),
    boards,
    stores: storeServicesFrom(boards, {}),
    payments: noPayments,
    mail: { mailer: null, sandboxDir: null },
    sms: smsFrom(loadConfig({})),
    secrets: boards.secrets,
    storage: t.services.storage,
    fx: t.services.fx,
    log: logger,
    webhooks: { sandboxUrl: null, sandboxDir: null },
  };
  const bot = createCaller(createContext({ db, channel: "telegram", locale: "am", services, actor: user! }));
  expect((await bot.loads.minePage({})).total).toBe(0);
  expect((await bot.auth.me())?.email).toBe(shipper.email);
  await expect(
    bot.auth.register({
      email: "bot@example.com",
      password: "long-enough-1",
      firstName: "B",
      lastName: "T",
      userType: "driver",
    }),
  ).rejects.toThrow("Signing in and out happens in the app or on the website");
  expect(await t.rows("select id from users where email = 'bot@example.com'")).toEqual([]);
  // Anonymous and not the system: operator procedures stay closed.
  const anon = createCaller(createContext({ db, channel: "whatsapp", locale: "om", services }));
  await expect(anon.admin.listUsers()).rejects.toThrow("Operator access only");
});

test("the CLI's context is the system's, without HTTP parts", async () => {
  const h = await openTestDb();
  try {
    const cli = createCaller(
      createContext({
        db: h.db,
        channel: "cli",
        locale: "en",
        system: true,
        services: {
          carriers: carriersFromEnv({}),
          notifiers: notifiersFromEnv({}, { vapidKeyFile: null }),
          boards: testBoardServices(),
          stores: storeServicesFrom(testBoardServices(), {}),
          payments: noPayments,
          mail: { mailer: null, sandboxDir: null },
          sms: smsFrom(loadConfig({})),
          secrets: testBoardServices().secrets,
          storage: storageFrom({ kind: "local", dir: testStorageDir() }),
          fx: fxSourceFrom(loadConfig({}).fx),
          log: logger,
          webhooks: { sandboxUrl: null, sandboxDir: null },
        },
      }),
    );
    expect(await cli.admin.listUsers()).toEqual([]);
  } finally {
    await h.close();
  }
});
