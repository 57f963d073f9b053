import { Command } from "commander";
import { USER_TYPES } from "../../src/shared/constants";
import { cliDate, i18n, openSystem } from "../context";

const create = new Command("create")
  .description("Create an account")
  .requiredOption("--email <email>", "email address")
  .requiredOption("--password <password>", "password (at least 8 characters)")
  .requiredOption("--first <name>", "first name")
  .requiredOption("--last <name>", "last name")
  .requiredOption("--type <type>", `account type: ${USER_TYPES.join(" or ")}`)
  .action(async (o: { email: string; password: string; first: string; last: string; type: string }) => {
    const { caller, handle } = await openSystem();
    try {
      const user = await caller.admin.createUser({
        email: o.email,
        password: o.password,
        firstName: o.first,
        lastName: o.last,
        userType: o.type as never,
      });
      console.log(
        i18n._({
          id: "cli.user.created",
          message: "Created {type} account {email} (id {id}).",
          values: { type: user.userType, email: user.email, id: user.id },
        }),
      );
    } finally {
      await handle.close();
    }
  });

const list = new Command("list")
  .description("List accounts")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { caller, handle } = await openSystem();
    try {
      const users = await caller.admin.listUsers();
      if (o.json) {
        console.log(JSON.stringify(users, null, 2));
        return;
      }
      if (users.length === 0) {
        console.log(i18n._({ id: "cli.user.none", message: "No accounts yet." }));
        return;
      }
      const rows = users.map((u) => [
        String(u.id),
        // An account made with a phone number has no email: its number stands in the column.
        u.email ?? u.phone ?? "",
        `${u.firstName} ${u.lastName}`,
        u.userType,
        cliDate(u.createdAt),
      ]);
      const head = [
        "ID",
        i18n._({
          id: "cli.user.col.email",
          comment: "Column header in the operator CLI's user list: the account's email address",
          message: "Email",
        }),
        i18n._({
          id: "cli.user.col.name",
          comment: "Column header in the operator CLI's user list: the person's name",
          message: "Name",
        }),
        i18n._({
          id: "cli.user.col.type",
          comment: "Column header in the operator CLI's user list: account type (driver or shipper)",
          message: "Type",
        }),
        i18n._({
          id: "cli.user.col.created",
          comment: "Column header in the operator CLI's user list: when the account was created",
          message: "Created",
        }),
      ];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i])).join("  "));
    } finally {
      await handle.close();
    }
  });

const operator = new Command("operator")
  .description("Make an account an operator on the web (the verification review page), or --off no longer one")
  .argument("<email>", "the account's email")
  .option("--off", "take the operator's access away")
  .action(async (email: string, o: { off?: boolean }) => {
    const { caller, handle } = await openSystem();
    try {
      const r = await caller.admin.setOperator({ email, operator: !o.off });
      console.log(
        r.operator
          ? i18n._({ id: "cli.user.operatorOn", message: "{email} is now an operator.", values: { email: r.email } })
          : i18n._({
              id: "cli.user.operatorOff",
              message: "{email} is no longer an operator.",
              values: { email: r.email },
            }),
      );
    } finally {
      await handle.close();
    }
  });

export const user = new Command("user")
  .description("Accounts")
  .addCommand(create)
  .addCommand(list)
  .addCommand(operator);
