import { expect, test } from "bun:test";
import { dateTimeFormat, numberFormat } from "./intl";

test("a formatter is made once per locale and options, and formats as a new one would", () => {
  const a = numberFormat("am-ET", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  expect(numberFormat("am-ET", { minimumFractionDigits: 2, maximumFractionDigits: 2 })).toBe(a);
  expect(numberFormat("am-ET", { maximumFractionDigits: 1 })).not.toBe(a);
  expect(numberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })).not.toBe(a);
  expect(a.format(1234.5)).toBe(
    new Intl.NumberFormat("am-ET", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1234.5),
  );
  const when = new Date(Date.UTC(2026, 10, 24, 9, 30));
  const d = dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Africa/Addis_Ababa" });
  expect(dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Africa/Addis_Ababa" })).toBe(d);
  expect(dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" })).not.toBe(d);
  expect(d.format(when)).toBe("Nov 24, 2026");
  // An option left undefined is the same formatter as the option left out.
  expect(dateTimeFormat("en-US", { dateStyle: "short", timeZone: undefined })).toBe(
    dateTimeFormat("en-US", { dateStyle: "short" }),
  );
});
