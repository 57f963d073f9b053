import { expect, type Page, request, test } from "@playwright/test";
import { nextSmsCode } from "./helpers";

// A driver with no email, on a cheap phone: signs up with the code the SMS Sandbox delivered (demo mode's /api/dev/sms
// inbox), signs out, sets a password with "Forgot password?" and a code by SMS (the account had none), then signs in
// with the phone number and that password. Wrong codes and passwords say so; a 6th code in an hour is refused.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const wrongCode = (code: string) => (code === "000000" ? "111111" : "000000");

/**
 * Every control a thumb may tap (the page's main part, its header and an open dialog) is at least 44 px high, and the
 * page does not scroll sideways. A link inside running text is not a control of its own; a radio counts by its label.
 */
const expectFitsAPhone = async (page: Page, where: string) => {
  const small = await page.evaluate(() => {
    const out: string[] = [];
    const roots = [...document.querySelectorAll("main, header, [role=dialog]")];
    for (const root of roots)
      for (const el of root.querySelectorAll<HTMLElement>(
        'a[href], button, input:not([type="radio"]):not([type="checkbox"]):not([type="hidden"]), select, textarea, label:has(input[type="radio"])',
      )) {
        // A switch is tapped by its label beside it (which toggles it).
        const target =
          el.getAttribute("role") === "switch" ? (document.querySelector(`label[for="${el.id}"]`) ?? el) : el;
        const r = target.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        if (el.tagName === "A" && el.closest("p")) continue;
        if (r.height < 44)
          out.push(
            `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? el.id).trim().slice(0, 40)}" ${Math.round(r.height)}px`,
          );
      }
    return out;
  });
  expect.soft(small, `controls under 44 px on ${where}`).toEqual([]);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect.soft(sideways, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
};

const logOut = async (page: Page) => {
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/landing$/);
};

test("a driver without email signs up by SMS code, sets a password by SMS and signs in with phone and password", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const national = `09${String(Date.now()).slice(-8)}`;
  const phone = `+251${national.slice(1)}`;
  const api = await request.newContext({ baseURL });

  // The sign-up page, from the landing page's driver button, with the phone option.
  await page.goto("/landing");
  await page.getByRole("link", { name: "Start earning today" }).click();
  await expect(page.getByRole("tab", { name: "Create account" })).toHaveAttribute("aria-selected", "true");
  await expectFitsAPhone(page, "the sign-up page");
  await page.getByRole("button", { name: "Use phone number" }).click();
  await page.getByLabel("Phone number").fill("0911");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Enter a phone number such as 0911 23 45 67 or +251 911 234 567")).toBeVisible();
  await page.getByLabel("Phone number").fill(national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 6-digit code by SMS to ${phone}. It works for 30 minutes.`)).toBeVisible();
  const code = await nextSmsCode(api, phone, 0);
  expect(code).toMatch(/^\d{6}$/);

  // The name and role beside the code; a wrong code is the code field's error, and nothing is made.
  await page.getByRole("radio", { name: "Driver" }).check();
  await page.getByLabel("First name").fill("Kebede");
  await page.getByLabel("Last name").fill("Alemu");
  await page.getByLabel("Code from the SMS").fill(wrongCode(code));
  await expectFitsAPhone(page, "the code step");
  await page.getByRole("button", { name: "Create account" }).last().click();
  const codeField = page.getByLabel("Code from the SMS");
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#phone-code-error")).toHaveText(
    "This code is wrong, used or expired. Check the SMS or ask for a new code.",
  );
  await codeField.fill(code);
  await page.getByRole("button", { name: "Create account" }).last().click();
  await expect(page).toHaveURL(/\/driver$/);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  const me = (await (await page.request.get("/api/auth/user")).json()) as {
    user: { email: string | null; phone: string; userType: string; firstName: string };
  };
  expect(me.user).toMatchObject({ email: null, phone, userType: "driver", firstName: "Kebede" });
  await expectFitsAPhone(page, "the driver's home");
  await logOut(page);

  // No password yet: "Forgot password?" by SMS sets one.
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.getByRole("button", { name: "No email? Get a code by SMS" }).click();
  await expectFitsAPhone(page, "the forgotten password page");
  await page.getByLabel("Phone number").fill(national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(`If an account uses ${phone}, a 6-digit code is on its way by SMS.`)).toBeVisible();
  const resetCode = await nextSmsCode(api, phone, 1);
  await expectFitsAPhone(page, "the new password page");
  await page.getByLabel("Code from the SMS").fill(wrongCode(resetCode));
  await page.getByLabel("New password", { exact: true }).fill("kebede-truck-2026");
  await page.getByLabel("Repeat the new password").fill("kebede-truck-2026");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(
    page.getByText("This code is wrong, used or expired. Check the SMS or ask for a new code."),
  ).toBeVisible();
  await page.getByLabel("Code from the SMS").fill(resetCode);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await logOut(page);

  // Signing in with the phone number (as typed on a phone) and the new password; a wrong one says so.
  await page.goto("/signin");
  await expectFitsAPhone(page, "the sign-in page");
  await page.getByLabel("Email or phone number").fill(national);
  await page.getByLabel("Password").fill("not-my-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Invalid phone number or password")).toBeVisible();
  await page.getByLabel("Password").fill("kebede-truck-2026");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  expect(((await (await page.request.get("/api/auth/user")).json()) as { user: { phone: string } }).user.phone).toBe(
    phone,
  );
  await logOut(page);

  // Codes by SMS: the number had one sign-in code; four more, then the 6th in the hour is refused with the wait.
  await page.goto("/signin");
  await page.getByRole("button", { name: "Use phone number" }).click();
  for (let i = 0; i < 4; i++) {
    await page.getByLabel("Phone number").fill(national);
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText(`We sent a 6-digit code by SMS to ${phone}. It works for 30 minutes.`)).toBeVisible();
    await page.getByRole("button", { name: "Send a new code" }).click();
  }
  await page.getByLabel("Phone number").fill(national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText(/^This number has had 5 codes in the last hour\. Try again in (60|59) minutes\.$/),
  ).toBeVisible();
  await expect(page.getByLabel("Phone number")).toBeVisible(); // still asking for the number: no code was promised
  await expectFitsAPhone(page, "the refused code");
  await api.dispose();
});

test("in Amharic the sign-in page's phone form is translated and names the number the code went to", async ({
  page,
  baseURL,
}) => {
  const national = `09${String(Date.now() + 7).slice(-8)}`;
  const phone = `+251${national.slice(1)}`;
  await page.addInitScript(() => localStorage.setItem("i18nextLng", "am"));
  await page.goto("/signin?mode=register");
  await page.getByRole("button", { name: "ስልክ ቁጥር ይጠቀሙ" }).click(); // "Use phone number"
  await page.locator("#reg-phone").fill(national);
  await page.locator("form button[type=submit]").click();
  const status = page.getByRole("status").filter({ hasText: phone });
  await expect(status).toBeVisible();
  await expect(status).not.toContainText("{");
  await expect(status).not.toContainText("We sent");
  const api = await request.newContext({ baseURL });
  expect(await nextSmsCode(api, phone, 0)).toMatch(/^\d{6}$/);
  await api.dispose();
});
