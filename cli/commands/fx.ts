import { Command } from "commander";
import { CliError, cliDate, i18n, openSystem } from "../context";

/** How a rate came about, in the operator's language. */
const origin = (r: { source: string; rateDate: string | null; validUntil: string | null }, sourceName: string) => {
  if (r.source === "seed")
    return i18n._({
      id: "cli.fx.seed",
      comment:
        "Operator CLI, exchange rates: this rate is the fixed first-start rate, no published rate has been fetched",
      message: "first-start rate (none fetched yet)",
    });
  const day = r.rateDate ? cliDate(`${r.rateDate}T12:00:00Z`) : "";
  if (r.source === "operator")
    return r.validUntil
      ? i18n._({
          id: "cli.fx.overrideUntil",
          message: "operator's override of {day}, through {until}",
          values: { day, until: cliDate(`${r.validUntil}T12:00:00Z`) },
        })
      : i18n._({
          id: "cli.fx.override",
          comment: "Operator CLI, exchange rates: the rate is an operator's override, set on this day",
          message: "operator's override of {day}",
          values: { day },
        });
  return i18n._({
    id: "cli.fx.fetched",
    comment: "Operator CLI, exchange rates: the rate source's name, then the day the rate is of",
    message: "{source}, rates of {day}",
    values: { source: sourceName, day },
  });
};

const list = new Command("list")
  .description("The exchange rates in use (units per US dollar), each with its day and where it came from")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { handle, caller, services } = await openSystem();
    try {
      const rates = await caller.fx.list();
      if (o.json) {
        console.log(JSON.stringify(rates, null, 2));
        return;
      }
      for (const r of rates)
        console.log(`${r.currency}  ${String(r.ratePerUsd).padStart(12)}  ${origin(r, services.fx.name)}`);
    } finally {
      await handle.close();
    }
  });

const set = new Command("set")
  .description("Override a currency's rate (units per US dollar) from today, until --until or until set again")
  .argument("<currency>", "currency code, such as ETB")
  .argument("<rate>", "units of the currency per US dollar, such as 157.5")
  .option("--until <date>", "the last day the override is used (YYYY-MM-DD, Addis Ababa time)")
  .action(async (currency: string, rate: string, o: { until?: string }) => {
    const n = Number(rate);
    if (!rate.trim() || !Number.isFinite(n))
      throw new CliError(
        i18n._({ id: "cli.fx.badRate", message: "rate must be a number of units per US dollar, such as 157.5" }),
      );
    const { handle, caller, services } = await openSystem();
    try {
      const r = await caller.fx.set({ currency, ratePerUsd: n, until: o.until ?? null });
      console.log(`${r.currency}  ${r.ratePerUsd}  ${origin(r, services.fx.name)}`);
    } finally {
      await handle.close();
    }
  });

const sync = new Command("sync")
  .description("Fetch the days' rates from the rate source now, as the hourly job does")
  .action(async () => {
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.fx.sync();
      console.log(
        r.days.length
          ? i18n._({
              id: "cli.fx.synced",
              comment: "Operator CLI: the rate source's name, then the days whose exchange rates were fetched",
              message: "{source}: rates of {days}",
              values: { source: r.source, days: r.days.map((d) => cliDate(`${d}T12:00:00Z`)).join(", ") },
            })
          : i18n._({
              id: "cli.fx.nothingNew",
              message: "{source}: no new rates (a weekend or a holiday keeps the last day's)",
              values: { source: r.source },
            }),
      );
    } finally {
      await handle.close();
    }
  });

export const fx = new Command("fx")
  .description("Exchange rates: list them, override one, fetch now")
  .addCommand(list)
  .addCommand(set)
  .addCommand(sync);
