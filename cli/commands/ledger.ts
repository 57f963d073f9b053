import { Command } from "commander";
import { i18n, openSystem } from "../context";

const check = new Command("check")
  .description("Prove that every freight payment's ledger entries balance; exit 1 and list what does not")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.payments.ledgerCheck();
      if (o.json) console.log(JSON.stringify(r, null, 2));
      else if (!r.problems.length)
        console.log(
          i18n._({
            id: "cli.ledger.balanced",
            message: "The ledger balances: {entries} entries over {payments} payments.",
            values: { entries: r.entries, payments: r.payments },
          }),
        );
      else {
        console.log(
          i18n._({
            id: "cli.ledger.problems",
            message: "The ledger has {count} problems:",
            values: { count: r.problems.length },
          }),
        );
        for (const p of r.problems)
          console.log(`  ${p.kind.padEnd(14)} ${p.txn ?? `payment ${p.paymentId}`}  ${p.detail}`);
      }
      if (r.problems.length) process.exitCode = 1;
    } finally {
      await handle.close();
    }
  });

export const ledger = new Command("ledger").description("The freight payments' ledger").addCommand(check);
