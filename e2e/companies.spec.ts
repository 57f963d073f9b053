import { type APIRequestContext, expect, type Page, request, test } from "@playwright/test";
import { confirmEmail, postAddisLoad, signUp, uniqueEmail } from "./helpers";

// A fleet owner makes a carrier company on a phone and invites a dispatcher by email and a driver by SMS (read from
// demo mode's mail and SMS inboxes); both accept from the link once their contact is confirmed. The dispatcher bids for the company on a shipper's
// load, the shipper awards it, the dispatcher assigns the company's driver, and the driver sees the trip.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
test.setTimeout(240_000);

type TSms = { to: string; body: string; provider: string };

/** The first message in demo mode's SMS inbox to `phone` that matches, once it has arrived. */
const smsTo = async (api: APIRequestContext, phone: string, match: RegExp) => {
  let found = "";
  await expect
    .poll(
      async () => {
        const inbox = (await (await api.get("/api/dev/sms")).json()) as { messages: TSms[] };
        found = inbox.messages.find((m) => m.to === phone && match.test(m.body))?.body ?? "";
        return found !== "";
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found;
};

const register = async (page: Page, email: string, first: string, last: string, userType: "driver" | "shipper") => {
  const made = await page.request.post("/api/auth/register", {
    data: { email, password: "strong-password-1", firstName: first, lastName: last, userType },
  });
  expect(made.status()).toBe(201);
};

test("a fleet owner invites a dispatcher and a driver; the dispatcher bids and assigns the trip", async ({
  browser,
  baseURL,
}) => {
  const api = await request.newContext({ baseURL });
  const company = `Abay Freight ${Date.now() % 100000}`;

  // The owner, on a phone: the Company page from the account menu, a field error, then the company.
  const ownerCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, baseURL });
  const owner = await ownerCtx.newPage();
  await register(owner, uniqueEmail("fleet.owner"), "Tesfaye", "Bekele", "driver");
  await owner.goto("/driver");
  await owner.getByTestId("user-menu").click();
  await owner.getByTestId("menu-company").click();
  const create = owner.getByTestId("create-company");
  await expect(create.getByRole("heading", { name: "Create a company" })).toBeVisible();
  await create.getByLabel("Company name").fill("A");
  await create.getByTestId("create-company-submit").click();
  await expect(create.getByText("name must be at least 2 characters")).toBeVisible();
  await create.getByLabel("Company name").fill(company);
  await expect(create.getByLabel("Kind of company")).toHaveValue("carrier");
  await create.getByTestId("create-company-submit").click();
  await expect(owner.getByTestId("company-name")).toHaveText(company);
  await expect(owner.getByTestId("company-member")).toHaveCount(1);
  await expect(owner.getByTestId("no-invitations")).toBeVisible();

  // Invitations: a dispatcher by email, a driver by SMS.
  const dispatcherEmail = uniqueEmail("dispatcher");
  const invite = owner.getByTestId("invite-form");
  await invite.getByLabel("Their email").fill(dispatcherEmail);
  await invite.getByLabel("Role").selectOption("dispatcher");
  await invite.getByTestId("invite-submit").click();
  await expect(owner.getByTestId("company-invitation").filter({ hasText: dispatcherEmail })).toContainText(
    "Dispatcher",
  );
  const national = `09${String(Date.now()).slice(-8)}`;
  const phone = `+251${national.slice(1)}`;
  await invite.getByRole("radio", { name: "SMS" }).check();
  await invite.getByLabel("Their phone number").fill("0911");
  await invite.getByTestId("invite-submit").click();
  await expect(invite.locator("#invite-contact-error")).toBeVisible();
  await invite.getByLabel("Their phone number").fill(phone);
  await invite.getByLabel("Role").selectOption("driver");
  await invite.getByTestId("invite-submit").click();
  await expect(owner.getByTestId("company-invitation")).toHaveCount(2);

  // The dispatcher has no account yet: the mail's link, then "Create an account to accept", back to accept.
  const dispatcherCtx = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL });
  const dispatcher = await dispatcherCtx.newPage();
  await dispatcher.goto("/dev/mail");
  const mail = dispatcher.getByRole("listitem").filter({ hasText: `To ${dispatcherEmail}` });
  await expect(mail).toBeVisible({ timeout: 20_000 });
  await mail.getByRole("link", { name: /\/invitations\// }).click();
  await expect(dispatcher.getByTestId("invitation-summary")).toHaveText(
    `${company} (Carrier company) invites you to join as Dispatcher.`,
  );
  const invitationPath = new URL(dispatcher.url()).pathname;
  await dispatcher.getByTestId("invitation-sign-up").click();
  await signUp(dispatcher, { type: "Driver", first: "Hana", last: "Girma", email: dispatcherEmail });
  // The new account's address is not confirmed yet: refused, with the confirmation link offered and mailed.
  await dispatcher.getByTestId("accept-invitation").click();
  const confirmFirst = dispatcher.getByTestId("invitation-confirm-email");
  await expect(confirmFirst).toContainText("Confirm your email first");
  await confirmFirst.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(confirmFirst.getByTestId("confirmation-sent")).toContainText(
    `We sent a new link to ${dispatcherEmail}.`,
  );
  await dispatcher.goto("/dev/mail");
  const confirmation = dispatcher
    .getByRole("listitem")
    .filter({ hasText: `To ${dispatcherEmail}` })
    .filter({ has: dispatcher.getByRole("heading", { name: "Confirm your email for MyTess" }) })
    .first();
  await confirmation.getByRole("link", { name: /\/verify-email\?token=/ }).click();
  await expect(dispatcher.getByTestId("email-confirmed")).toContainText("Email confirmed");
  await dispatcher.goto(invitationPath);
  await dispatcher.getByTestId("accept-invitation").click();
  await expect(dispatcher.getByTestId("company-name")).toHaveText(company);
  await expect(dispatcher.getByText(`You are Dispatcher in ${company}`)).toBeVisible();

  // The driver signed up by email and confirmed this phone number; someone else opening the link is refused.
  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, baseURL });
  const driver = await driverCtx.newPage();
  await register(driver, uniqueEmail("company.driver"), "Dawit", "Alemu", "driver");
  const link = /https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]+/.exec(await smsTo(api, phone, /invitations\//))![0];
  await driver.goto(new URL(link).pathname);
  await expect(driver.getByTestId("invitation-summary")).toHaveText(
    `${company} (Carrier company) invites you to join as Driver.`,
  );
  await driver.getByTestId("accept-invitation").click();
  await expect(driver.getByText(/sent to a phone number your account has not confirmed/)).toBeVisible();
  expect((await driver.request.post("/api/user/phone", { data: { phone } })).status()).toBe(202);
  const code = /\b(\d{6})\b/.exec(await smsTo(api, phone, /\b\d{6}\b/))![1];
  expect((await driver.request.post("/api/user/phone/verify", { data: { phone, code } })).status()).toBe(200);
  await driver.getByTestId("accept-invitation").click();
  await expect(driver.getByText(`You are Driver in ${company}`)).toBeVisible();

  // The owner sees both members and no pending invitation.
  await owner.reload();
  await expect(owner.getByTestId("company-member")).toHaveCount(3);
  await expect(owner.getByTestId("no-invitations")).toBeVisible();

  // A shipper's load; the dispatcher bids for the company from the load's page.
  const shipperCtx = await browser.newContext({ baseURL });
  const shipper = await shipperCtx.newPage();
  await register(shipper, uniqueEmail("company.shipper"), "Meron", "Tadesse", "shipper");
  const title = `Cement for ${company}`;
  const loadId = await postAddisLoad(shipper, title);

  await dispatcher.goto(`/loads/${loadId}`);
  await dispatcher.getByTestId("quick-bid").click();
  const dialog = dispatcher.getByTestId("bid-dialog");
  await expect(dialog.getByTestId("bid-for-company")).toContainText(`You bid for ${company}.`);
  await dialog.getByLabel("Bid amount").fill("9800");
  await dialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(dialog).toBeHidden();

  // The shipper's bid list names the carrier company the dispatcher bid for (its profile), not only the person.
  await shipper.goto("/shipper");
  await shipper.getByTestId("my-load").filter({ hasText: title }).getByTestId("view-bids").click();
  const companyBid = shipper.getByTestId("bid-row").filter({ hasText: "Hana Girma" });
  const carrier = companyBid.getByTestId("carrier-trust");
  await expect(carrier).toHaveAttribute("data-kind", "company");
  await expect(carrier.getByTestId("company-link")).toHaveText(company);
  await expect(carrier.getByTestId("carrier-trips")).toHaveText("0 trips completed");
  await shipper.keyboard.press("Escape");

  // The shipper awards the company's bid.
  const bids = (await (await shipper.request.get(`/api/loads/${loadId}/bids`)).json()) as { id: number }[];
  expect(bids).toHaveLength(1);
  expect((await shipper.request.post(`/api/bids/${bids[0]!.id}/accept`)).status()).toBe(200);

  // The dispatcher assigns the company's driver on the load's page.
  await dispatcher.reload();
  const card = dispatcher.getByTestId("assign-driver");
  await expect(card.getByTestId("assigned-driver")).toHaveText("No driver of the company is assigned yet.");
  await card.getByTestId("assign-driver-submit").click();
  await expect(card.getByText("Choose one of the company's drivers")).toBeVisible();
  await card.getByLabel("Driver").selectOption({ label: "Dawit Alemu" });
  await card.getByTestId("assign-driver-submit").click();
  await expect(card.getByTestId("assigned-driver")).toHaveText("Dawit Alemu drives this trip.");

  // The driver sees the trip on the dashboard and runs it as any driver does.
  await driver.goto("/driver");
  const trip = driver.getByTestId("trip-row").filter({ hasText: title });
  await expect(trip).toBeVisible();
  await trip.getByRole("button", { name: "Mark picked up" }).click();
  await expect(trip).toContainText(/In transit/i);

  for (const ctx of [ownerCtx, dispatcherCtx, driverCtx, shipperCtx]) await ctx.close();
  await api.dispose();
});

/** The invitation link in demo mode's mail inbox to `email`, once it has arrived. */
const invitationTokenFor = async (api: APIRequestContext, email: string) => {
  let token = "";
  await expect
    .poll(
      async () => {
        const inbox = (await (await api.get("/api/dev/mail")).json()) as { mails: { to: string[]; text: string }[] };
        const mail = inbox.mails.find((m) => m.to.some((t) => t.includes(email)) && /\/invitations\//.test(m.text));
        token = mail?.text.match(/\/invitations\/([A-Za-z0-9_-]+)/)?.[1] ?? "";
        return token;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return token;
};

// A shipper company's staff member manages the owner's load: it is in their My Loads with who posted it (and only
// under "Company", not "Mine"), and they accept a driver's bid from there.
test("a shipper company's staff member accepts a bid on the owner's load", async ({ browser, baseURL }) => {
  const api = await request.newContext({ baseURL });
  const company = `Awash Cement ${Date.now() % 100000}`;

  // The owner makes the company, invites a staff member, and posts a load.
  const ownerCtx = await browser.newContext({ baseURL });
  const owner = await ownerCtx.newPage();
  await register(owner, uniqueEmail("shipper.owner"), "Meron", "Tadesse", "shipper");
  const made = await owner.request.post("/api/companies", { data: { kind: "shipper", name: company, country: "ET" } });
  expect(made.status()).toBe(201);
  const companyId = (await made.json()).company.id as number;
  const staffEmail = uniqueEmail("shipper.staff");
  const invited = await owner.request.post(`/api/companies/${companyId}/invitations`, {
    data: { email: staffEmail, role: "staff" },
  });
  expect(invited.status()).toBe(201);
  const title = `Bagged cement for ${company}`;
  const loadId = await postAddisLoad(owner, title);

  // A driver bids on it.
  const driverCtx = await browser.newContext({ baseURL });
  const driver = await driverCtx.newPage();
  await register(driver, uniqueEmail("cement.driver"), "Girma", "Bekele", "driver");
  expect((await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 9500 } })).status()).toBe(201);

  // The staff member signs up, confirms the email and accepts the invitation.
  const staffCtx = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL });
  const staff = await staffCtx.newPage();
  await register(staff, staffEmail, "Selam", "Kebede", "shipper");
  await confirmEmail(staff, staffEmail);
  const token = await invitationTokenFor(api, staffEmail);
  expect((await staff.request.post(`/api/invitations/${token}/accept`)).status()).toBe(200);

  // My Loads shows the owner's load with who posted it; "Mine" hides it, "Company" shows it.
  await staff.goto("/shipper");
  const myLoad = staff.getByTestId("my-load").filter({ hasText: title });
  await expect(myLoad.getByTestId("posted-by")).toHaveText("Posted by Meron Tadesse");
  await staff.getByLabel("Posted by").selectOption("mine");
  await expect(staff.getByTestId("no-matching-loads")).toBeVisible();
  await staff.getByLabel("Posted by").selectOption("company");
  await expect(myLoad).toContainText("Posted");

  // The staff member accepts the driver's bid.
  await myLoad.getByTestId("view-bids").click();
  const bidRow = staff.getByTestId("bid-row").filter({ hasText: "Girma Bekele" });
  await bidRow.getByTestId("accept-bid").click();
  await bidRow.getByTestId("confirm-accept-bid").click();
  await expect(bidRow.getByTestId("bid-status")).toHaveText("Accepted");
  await staff.keyboard.press("Escape");
  await expect(myLoad.getByTestId("load-status")).toHaveText("Assigned");

  // The staff member's own load shows the company on the driver's board and on the load's page, not the person.
  const staffTitle = `Clinker for ${company}`;
  const staffLoadId = await postAddisLoad(staff, staffTitle);
  await driver.setViewportSize({ width: 1280, height: 900 });
  await driver.goto("/loads?latitude=8.9&longitude=38.77&radius=50&sourceType=mytess&sort=date");
  const boardRow = driver.getByTestId("load-row").filter({ hasText: staffTitle });
  const shipperCell = boardRow.getByTestId("shipper-cell");
  await expect(shipperCell.getByTestId("company-link")).toHaveText(company, { timeout: 30_000 });
  await expect(shipperCell.getByTestId("company-mark")).toBeAttached();
  await expect(shipperCell).not.toContainText("Selam");
  await driver.goto(`/loads/${staffLoadId}`);
  const shipperBlock = driver.getByTestId("shipper-trust");
  await expect(shipperBlock.getByTestId("shipper-name")).toHaveAttribute("data-kind", "company");
  await expect(shipperBlock.getByTestId("company-link")).toHaveText(company);
  await expect(shipperBlock.getByTestId("loads-posted")).toHaveText("2 loads posted");

  // The owner sees the award; a shipper outside the company cannot see the load's bids.
  const seen = (await (await owner.request.get(`/api/loads/${loadId}`)).json()) as { status: string };
  expect(seen.status).toBe("assigned");
  const outsiderCtx = await browser.newContext({ baseURL });
  const outsider = await outsiderCtx.newPage();
  await register(outsider, uniqueEmail("other.shipper"), "Abel", "Haile", "shipper");
  expect((await outsider.request.get(`/api/loads/${loadId}/bids`)).status()).toBe(404);

  for (const ctx of [ownerCtx, driverCtx, staffCtx, outsiderCtx]) await ctx.close();
  await api.dispose();
});
