#!/usr/bin/env bun
import { TRPCError } from "@trpc/server";
import { Command, CommanderError } from "commander";
import { ConfigError } from "../src/server/config";
import { AppError, describeError } from "../src/server/errors";
import { db } from "./commands/db";
import { ecommerce } from "./commands/ecommerce";
import { fx } from "./commands/fx";
import { jobs } from "./commands/jobs";
import { ledger } from "./commands/ledger";
import { marketplaces, sync } from "./commands/marketplaces";
import { notify } from "./commands/notify";
import { payments } from "./commands/payments";
import { rates, track } from "./commands/shipping";
import { subscription } from "./commands/subscription";
import { user } from "./commands/user";
import { verify } from "./commands/verify";
import { whatsapp } from "./commands/whatsapp";
import { CliError, cliLocale, i18n } from "./context";

process.env.LOG_LEVEL ??= "silent";

// CLI messages speak the operator's language (MYTESS_LANG or LANG); settings that cannot be used are named first.
try {
  i18n.activate(cliLocale());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(2);
}

const program = new Command()
  .name("mytess")
  .description(
    "MyTess operator tools: database, accounts, parcel carriers, jobs, exchange rates, freight payments, notifications, load boards, stores, WhatsApp Web and verification",
  )
  .version("0.1.0")
  .showHelpAfterError()
  .exitOverride()
  .addCommand(db)
  .addCommand(user)
  .addCommand(track)
  .addCommand(rates)
  .addCommand(jobs)
  .addCommand(fx)
  .addCommand(ledger)
  .addCommand(payments)
  .addCommand(notify)
  .addCommand(marketplaces)
  .addCommand(sync)
  .addCommand(ecommerce)
  .addCommand(subscription)
  .addCommand(whatsapp)
  .addCommand(verify);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode);
  }
  if (err instanceof CliError) {
    console.error(err.message);
  } else if (err instanceof TRPCError || err instanceof AppError) {
    // What the router refused, in the operator's language (MYTESS_LANG or LANG).
    const { body } = describeError(err, cliLocale());
    console.error(
      i18n._({
        id: "cli.error",
        comment: "Operator CLI: an error and its message",
        message: "Error: {message}",
        values: { message: body.message },
      }),
    );
    for (const issue of body.issues ?? []) console.error(`  ${issue.path}: ${issue.message}`);
  } else {
    console.error(
      i18n._({ id: "cli.error", message: "Error: {message}", values: { message: (err as Error).message } }),
    );
  }
  process.exit(1);
}
