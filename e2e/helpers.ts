import { expect, type Page } from "@playwright/test";

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++n}@example.com`;

export const DEMO = {
  driver: { email: "abebe@demo.mytess.app", password: "mytess-demo" },
  shipper: { email: "selam@demo.mytess.app", password: "mytess-demo" },
};

export const signIn = async (page: Page, who: { email: string; password: string }, returnTo = "/") => {
  await page.goto(`/signin?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();
};

export const signUp = async (
  page: Page,
  p: { type: "Driver" | "Shipper"; first: string; last: string; email: string; password?: string },
) => {
  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByRole("radio", { name: p.type }).check();
  await page.getByLabel("First name").fill(p.first);
  await page.getByLabel("Last name").fill(p.last);
  await page.getByLabel("Email").fill(p.email);
  await page.getByLabel("Password").fill(p.password ?? "strong-password-1");
  await page.getByRole("button", { name: "Create account" }).last().click();
};

/**
 * Confirms a new account's email with the link mailed at sign-up (demo mode's mail catcher): for stories whose steps
 * wait for a proven contact (funding a load, posting a fourth).
 */
export const confirmEmail = async (page: Page, email: string) => {
  let token = "";
  await expect
    .poll(
      async () => {
        const inbox = (await (await page.request.get("/api/dev/mail")).json()) as {
          mails: { to: string[]; text: string }[];
        };
        const mail = inbox.mails.find(
          (m) => m.to.some((t) => t.includes(email)) && /verify-email\?token=/.test(m.text),
        );
        token = mail?.text.match(/verify-email\?token=([\w-]+)/)?.[1] ?? "";
        return token;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  expect((await page.request.post("/api/auth/email/verify", { data: { token } })).status()).toBe(200);
};
