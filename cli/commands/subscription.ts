import { Command } from "commander";
import { CliError, cliConfig, cliDate, i18n, openSystem } from "../context";

const show = new Command("show")
  .description("An account's premium: status, paid period, provider, payments")
  .argument("<email>", "the account's email")
  .option("--json", "print JSON")
  .action(async (email: string, o: { json?: boolean }) => {
    const { handle, caller } = await openSystem();
    try {
      const s = await caller.billing.show({ email });
      if (o.json) {
        console.log(JSON.stringify(s, null, 2));
        return;
      }
      console.log(
        `${s.email}: ${s.subscriptionStatus}${s.trialStatus.isTrialActive ? ` (trial until ${cliDate(s.trialStatus.trialEndsAt)})` : ""}`,
      );
      if (s.currentPeriodEnd)
        console.log(
          i18n._({
            id: "cli.subscription.period",
            comment:
              "Operator CLI: the account has paid premium until {date}, with the payment provider and whether it renews",
            message: "Paid until {date} ({provider}){renews}",
            values: {
              date: cliDate(s.currentPeriodEnd),
              provider: s.provider ?? "-",
              renews: s.cancelAtPeriodEnd ? ", ends then" : "",
            },
          }),
        );
      for (const p of s.payments)
        console.log(
          `  ${cliDate(p.date)}  ${p.provider.padEnd(6)}  ${p.status.padEnd(8)}  ${p.amount.toFixed(2)} ${p.currency}${p.note ? `  ${p.note}` : ""}`,
        );
    } finally {
      await handle.close();
    }
  });

const grant = new Command("grant")
  .description("Give an account months of premium (support); recorded as a payment of 0")
  .argument("<email>", "the account's email")
  .requiredOption("--months <n>", "how many months")
  .action(async (email: string, o: { months: string }) => {
    const months = Number(o.months);
    if (!Number.isInteger(months) || months < 1 || months > 36)
      throw new CliError(
        i18n._({ id: "cli.subscription.badMonths", message: "--months must be a whole number from 1 to 36" }),
      );
    const { handle, caller } = await openSystem();
    try {
      const operator = cliConfig().cli.operator;
      const by = operator ? `cli:${operator}` : "cli";
      const r = await caller.billing.grant({ email, months, by });
      console.log(
        i18n._({
          id: "cli.subscription.granted",
          message: "{email} has premium until {date}.",
          values: { email: r.email, date: cliDate(r.paidUntil) },
        }),
      );
    } finally {
      await handle.close();
    }
  });

export const subscription = new Command("subscription")
  .description("Premium subscriptions: show an account's, grant months for support")
  .addCommand(show)
  .addCommand(grant);
