import { Command } from "commander";
import type { TVerificationSubmission } from "../../src/shared/schemas/answers/verification";
import { VERIFICATION_STATUSES } from "../../src/shared/schemas/verification";
import { CliError, cliDate, i18n, openSystem } from "../context";

const idOf = (text: string) => {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0)
    throw new CliError(
      i18n._({
        id: "cli.verify.badId",
        message: "Give a submission number from mytess verify list (got {text})",
        values: { text },
      }),
    );
  return n;
};

/** What a submission shows, in one line: the numbers given and the insurance's last day. */
const numbers = (s: TVerificationSubmission) =>
  [
    s.tradeLicenceNumber &&
      i18n._({
        id: "cli.verify.tradeLicence",
        comment: "Operator CLI, a verification submission: the Ethiopian trade licence and its number",
        message: "trade licence {number}",
        values: { number: s.tradeLicenceNumber },
      }),
    s.tin &&
      i18n._({
        id: "cli.verify.tin",
        comment: "Operator CLI, a verification submission: the taxpayer identification number (TIN) given",
        message: "TIN {number}",
        values: { number: s.tin },
      }),
    s.mcNumber && `MC ${s.mcNumber}`,
    s.dotNumber && `DOT ${s.dotNumber}`,
    s.insuranceExpiresOn &&
      i18n._({
        id: "cli.verify.insurance",
        comment: "Operator CLI, a verification submission: the insurance certificate's last day",
        message: "insurance until {day}",
        values: { day: s.insuranceExpiresOn },
      }),
  ]
    .filter(Boolean)
    .join(", ");

const print = (s: TVerificationSubmission) => {
  console.log(`#${s.id}  ${s.subject.name} (${s.subject.type} ${s.subject.id})  ${s.country}  ${cliDate(s.createdAt)}`);
  console.log(`    ${numbers(s)}`);
  for (const f of s.files) console.log(`    ${f.kind}: ${f.fileName} (${f.url})`);
  if (s.reason) console.log(`    ${s.reason}`);
};

const list = new Command("list")
  .description("Verification submissions waiting for review (or in another state), oldest first")
  .option("--status <status>", `one of ${VERIFICATION_STATUSES.join(", ")}`, "pending")
  .option("--json", "print JSON")
  .action(async (o: { status: string; json?: boolean }) => {
    const { caller, handle } = await openSystem();
    try {
      const items = await caller.verification.list({ status: o.status as never });
      if (o.json) {
        console.log(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        console.log(i18n._({ id: "cli.verify.none", message: "No submissions in this state." }));
        return;
      }
      for (const s of items) print(s);
    } finally {
      await handle.close();
    }
  });

const approve = new Command("approve")
  .description("Approve a pending submission: its owner gets the Verified badge and is told")
  .argument("<id>", "the submission's number")
  .action(async (id: string) => {
    const { caller, handle } = await openSystem();
    try {
      const s = await caller.verification.approve({ id: idOf(id) });
      console.log(
        i18n._({
          id: "cli.verify.approved",
          message: "Approved submission {id} of {name}.",
          values: { id: s.id, name: s.subject.name },
        }),
      );
    } finally {
      await handle.close();
    }
  });

const reject = new Command("reject")
  .description("Reject a pending submission: its owner is told the reason and may submit again")
  .argument("<id>", "the submission's number")
  .requiredOption("--reason <text>", "what is wrong, as the owner will read it")
  .action(async (id: string, o: { reason: string }) => {
    const { caller, handle } = await openSystem();
    try {
      const s = await caller.verification.reject({ id: idOf(id), reason: o.reason });
      console.log(
        i18n._({
          id: "cli.verify.rejected",
          message: "Rejected submission {id} of {name}.",
          values: { id: s.id, name: s.subject.name },
        }),
      );
    } finally {
      await handle.close();
    }
  });

export const verify = new Command("verify")
  .description("Verification submissions: list, approve, reject")
  .addCommand(list)
  .addCommand(approve)
  .addCommand(reject);
