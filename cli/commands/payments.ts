import { Command } from "commander";
import { formatMoney } from "../../src/shared/money";
import { FREIGHT_PAYMENT_STATES, type TFreightPaymentState } from "../../src/shared/schemas/payments";
import { CliError, cliConfig, cliDate, cliLocale, i18n, openSystem } from "../context";

const MONEY_LOCALE = { en: "en-US", am: "am-ET", om: "en-GB" } as const;
const money = (amount: number, currency: string) => formatMoney(amount, currency, MONEY_LOCALE[cliLocale()]);

/** A payment's number from the command line, or the CLI's error naming <id>. */
const paymentIdOf = (id: string) => {
  const paymentId = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(paymentId) || paymentId < 1)
    throw new CliError(i18n._({ id: "cli.payments.badId", message: "<id> must be a payment's number, such as 12" }));
  return paymentId;
};

const list = new Command("list")
  .description("Freight payments, newest change first (--state disputed: those waiting for an operator)")
  .option("--state <state>", `only payments in this state: ${FREIGHT_PAYMENT_STATES.join(", ")}`)
  .option("--json", "print JSON")
  .action(async (o: { state?: string; json?: boolean }) => {
    if (o.state !== undefined && !FREIGHT_PAYMENT_STATES.includes(o.state as TFreightPaymentState))
      throw new CliError(
        i18n._({
          id: "cli.payments.badState",
          message: "--state must be one of {states}",
          values: { states: FREIGHT_PAYMENT_STATES.join(", ") },
        }),
      );
    const { handle, caller } = await openSystem();
    try {
      const rows = await caller.payments.operatorList(o.state ? { state: o.state as TFreightPaymentState } : {});
      if (o.json) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      if (!rows.length) {
        console.log(
          i18n._({
            id: "cli.payments.none",
            comment: "Operator CLI, payments list: no freight payment matches",
            message: "No payments.",
          }),
        );
        return;
      }
      for (const r of rows)
        console.log(
          [
            `#${r.id}`.padEnd(6),
            r.state.padEnd(16),
            money(r.agreed, r.currency).padStart(14),
            `${r.provider.padEnd(6)} ${cliDate(r.updatedAt)}`,
            i18n._({
              id: "cli.payments.row",
              comment:
                "Operator CLI, payments list: the load's number and title, then the shipper's and driver's emails",
              message: "load {load} «{title}»: {shipper} → {driver}",
              values: { load: r.loadId, title: r.loadTitle, shipper: r.shipperEmail, driver: r.driverEmail },
            }),
          ].join("  "),
        );
    } finally {
      await handle.close();
    }
  });

const resolve = new Command("resolve")
  .description(
    "Settle a disputed payment, or one whose Stripe payout was reversed: --release pays the driver (again, as a new transfer, after a reversal); --refund returns it to the shipper (after a reversal: what the reversal returned) (--amount: only that much, the rest released to the driver)",
  )
  .argument("<id>", "the payment's number (see payments list)")
  .option("--release", "release the payment to the driver")
  .option("--refund", "refund the shipper")
  .option("--amount <amount>", "with --refund: minor units as a whole number (1250) or a decimal (12.50)")
  .option("--json", "print JSON")
  .action(async (id: string, o: { release?: boolean; refund?: boolean; amount?: string; json?: boolean }) => {
    const paymentId = paymentIdOf(id);
    if (!!o.release === !!o.refund)
      throw new CliError(i18n._({ id: "cli.payments.oneAction", message: "Say --release or --refund (one of them)" }));
    if (o.release && o.amount !== undefined)
      throw new CliError(i18n._({ id: "cli.payments.amountOnlyRefund", message: "--amount goes with --refund only" }));
    const operator = cliConfig().cli.operator;
    const by = operator ? `cli:${operator}` : "cli";
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.payments.resolve({
        paymentId,
        action: o.release ? "release" : "refund",
        ...(o.amount !== undefined ? { amount: o.amount } : {}),
        by,
      });
      if (o.json) {
        console.log(JSON.stringify(r, null, 2));
        return;
      }
      console.log(
        r.state === "refunded"
          ? i18n._({
              id: "cli.payments.refunded",
              message: "Payment {id} is refunded: {refunded} back to the shipper.",
              values: { id: r.paymentId, refunded: money(r.refunded, r.currency) },
            })
          : r.refunded > 0
            ? i18n._({
                id: "cli.payments.split",
                message: "Payment {id} is split: {refunded} back to the shipper, {released} released to the driver.",
                values: {
                  id: r.paymentId,
                  refunded: money(r.refunded, r.currency),
                  released: money(r.released, r.currency),
                },
              })
            : i18n._({
                id: "cli.payments.released",
                message: "Payment {id} is released: {released} to the driver.",
                values: { id: r.paymentId, released: money(r.released, r.currency) },
              }),
      );
    } finally {
      await handle.close();
    }
  });

const payoutCheck = new Command("payout-check")
  .description(
    "Ask Chapa now about a released payment's payout (one marked delayed, or any still pending) and settle it: paid out, failed (the driver is told what to fix), or still pending",
  )
  .argument("<id>", "the payment's number (see payments list --state released)")
  .option("--json", "print JSON")
  .action(async (id: string, o: { json?: boolean }) => {
    const paymentId = paymentIdOf(id);
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.payments.payoutCheck({ paymentId });
      if (o.json) {
        console.log(JSON.stringify(r, null, 2));
        return;
      }
      console.log(
        r.transfer === "paid_out"
          ? i18n._({
              id: "cli.payments.payoutPaid",
              message: "Payment {id}: Chapa sent the transfer {reference}; the payment is paid out.",
              values: { id: r.paymentId, reference: r.reference },
            })
          : r.transfer === "failed"
            ? i18n._({
                id: "cli.payments.payoutFailed",
                message:
                  "Payment {id}: Chapa says the transfer {reference} failed; the driver is told what to fix, and it is sent again once they save their details.",
                values: { id: r.paymentId, reference: r.reference },
              })
            : r.transfer === "unknown"
              ? i18n._({
                  id: "cli.payments.payoutUnknown",
                  message:
                    "Payment {id}: Chapa has no transfer {reference}; it is asked for again under the same reference (Chapa never takes a reference twice).",
                  values: { id: r.paymentId, reference: r.reference },
                })
              : i18n._({
                  id: "cli.payments.payoutPending",
                  comment: "Operator CLI: Chapa still reports the driver's bank transfer as queued",
                  message:
                    "Payment {id}: Chapa still reports the transfer {reference} pending. Nothing is sent again; ask Chapa's support about it, then check again.",
                  values: { id: r.paymentId, reference: r.reference },
                }),
      );
    } finally {
      await handle.close();
    }
  });

const checkoutCheck = new Command("checkout-check")
  .description(
    "Ask Chapa now about a payment whose checkout page is still open (awaiting payment) and settle it: funded, failed, or still pending",
  )
  .argument("<id>", "the payment's number (see payments list --state awaiting_payment)")
  .option("--json", "print JSON")
  .action(async (id: string, o: { json?: boolean }) => {
    const paymentId = paymentIdOf(id);
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.payments.checkoutCheck({ paymentId });
      if (o.json) {
        console.log(JSON.stringify(r, null, 2));
        return;
      }
      console.log(
        i18n._({
          id: "cli.payments.checkoutChecked",
          comment:
            "Operator CLI: {chapa} is Chapa's own word for the checkout (success, pending, failed…), {state} ours",
          message: "Payment {id}: Chapa says {chapa} for {txRef}; the payment is {state}.",
          values: { id: r.paymentId, chapa: r.chapa, txRef: r.txRef, state: r.state },
        }),
      );
    } finally {
      await handle.close();
    }
  });

export const payments = new Command("payments")
  .description(
    "Freight payments: list them, settle a disputed or reversed one, check a payout or a checkout with Chapa",
  )
  .addCommand(list)
  .addCommand(resolve)
  .addCommand(payoutCheck)
  .addCommand(checkoutCheck);
