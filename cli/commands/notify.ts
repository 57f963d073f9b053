import { Command } from "commander";
import { CliError, i18n, openSystem } from "../context";

const broadcastCmd = new Command("broadcast")
  .description("Send a system alert or an announcement to every user (or every driver or shipper)")
  .requiredOption("--title <title>", "the notification's title")
  .requiredOption("--message <text>", "the notification's text")
  .option("--type <type>", "systemAlerts (push and chats where on) or marketing (push only)", "systemAlerts")
  .option("--role <role>", "only drivers or only shippers")
  .action(async (o: { title: string; message: string; type: string; role?: string }) => {
    if (o.type !== "systemAlerts" && o.type !== "marketing")
      throw new CliError(i18n._({ id: "cli.notify.badType", message: "--type must be systemAlerts or marketing" }));
    if (o.role !== undefined && o.role !== "driver" && o.role !== "shipper")
      throw new CliError(i18n._({ id: "cli.notify.badRole", message: "--role must be driver or shipper" }));
    const { handle, caller } = await openSystem();
    try {
      const r = await caller.admin.broadcast({
        type: o.type,
        title: o.title,
        message: o.message,
        role: o.role as "driver" | "shipper" | undefined,
      });
      console.log(
        i18n._({
          id: "cli.notify.queued",
          message: "Queued for {count} users; the job worker delivers it.",
          values: { count: r.recipients },
        }),
      );
    } finally {
      await handle.close();
    }
  });

export const notify = new Command("notify").description("Notifications: broadcasts").addCommand(broadcastCmd);
