import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { DEMO, signIn } from "./helpers";

// axe-core on every main page, on a phone and at a desk, signed out and as each kind of user: no serious or critical
// violation. A failure lists each rule with the elements it found, so the fix can start from the report.
const PUBLIC = ["/", "/about", "/privacy", "/terms", "/contact", "/signin", "/forgot-password", "/subscribe"];
const DRIVER = ["/", "/driver", "/marketplaces", "/messaging", "/profile", "/settings", "/shipping"];
const SHIPPER = ["/shipper", "/loads", "/ecommerce"];
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

const scan = async (page: Page, path: string) => {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  // The page's own content, not a loading placeholder.
  await expect(page.locator("main").first()).toBeVisible();
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${path} ${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`).join(" | ")}`,
    );
};

const scanAll = async (
  browser: Browser,
  viewport: { width: number; height: number },
  paths: string[],
  who?: { email: string; password: string },
) => {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (who) await signIn(page, who);
  const found: string[] = [];
  for (const path of paths) found.push(...(await scan(page, path)));
  await context.close();
  return found;
};

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`accessibility on a ${name}`, () => {
    test.setTimeout(120_000);
    test("public pages", async ({ browser }) => {
      expect(await scanAll(browser, viewport, PUBLIC)).toEqual([]);
    });
    test("a driver's pages", async ({ browser }) => {
      expect(await scanAll(browser, viewport, DRIVER, DEMO.driver)).toEqual([]);
    });
    test("a shipper's pages", async ({ browser }) => {
      expect(await scanAll(browser, viewport, SHIPPER, DEMO.shipper)).toEqual([]);
    });
  });
}
