import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase } from "../db/testing";

// About sixteen CLI starts, each several seconds on a loaded machine.
setDefaultTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-cli-verify-"));
const db = await scratchDatabase(dir, "verify");
const env = { ...process.env, ...db.env, MYTESS_LANG: "en" };
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (args: string[]) => {
  const p = Bun.spawn(["bun", join(import.meta.dir, "index.ts"), ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
};

/** A pending US submission of the account, written as the web route writes it. */
const submission = async (userId: number, mc: string) => {
  await db.run(
    "INSERT INTO verifications (subject_type, subject_id, submitted_by, status, country, mc_number, created_at) VALUES ('user', ?, ?, 'pending', 'US', ?, ?)",
    userId,
    userId,
    mc,
    Date.now(),
  );
  const [row] = await db.rows<{ id: number }>(
    "SELECT id FROM verifications WHERE subject_id = ? ORDER BY id DESC LIMIT 1",
    userId,
  );
  return row!.id;
};

test("verify list, approve and reject act on pending submissions; user operator grants the web page", async () => {
  for (const [email, first] of [
    ["carrier@example.com", "Dawit"],
    ["trucker@example.com", "Kebede"],
  ] as const)
    expect(
      (
        await run([
          "user",
          "create",
          "--email",
          email,
          "--password",
          "correct-horse-battery",
          "--first",
          first,
          "--last",
          "Alemu",
          "--type",
          "driver",
        ])
      ).code,
    ).toBe(0);
  const users = JSON.parse((await run(["user", "list", "--json"])).out) as { id: number; email: string }[];
  const [a, b] = users.map((u) => u.id);
  expect((await run(["verify", "list"])).out).toContain("No submissions in this state.");
  const first = await submission(a!, "123456");
  const second = await submission(b!, "654321");

  const listed = await run(["verify", "list"]);
  expect(listed.out).toContain(`#${first}  Dawit Alemu (user ${a})  US`);
  expect(listed.out).toContain("MC 123456");
  const json = JSON.parse((await run(["verify", "list", "--json"])).out) as { id: number; status: string }[];
  expect(json.map((s) => [s.id, s.status])).toEqual([
    [first, "pending"],
    [second, "pending"],
  ]);

  const approved = await run(["verify", "approve", String(first)]);
  expect([approved.code, approved.out.trim()]).toEqual([0, `Approved submission ${first} of Dawit Alemu.`]);
  const noReason = await run(["verify", "reject", String(second)]);
  expect(noReason.code).not.toBe(0);
  expect(noReason.err).toContain("--reason");
  const rejected = await run(["verify", "reject", String(second), "--reason", "MC number not found at FMCSA"]);
  expect([rejected.code, rejected.out.trim()]).toEqual([0, `Rejected submission ${second} of Kebede Alemu.`]);
  const twice = await run(["verify", "approve", String(second)]);
  expect(twice.code).toBe(1);
  expect(twice.err).toContain("This submission was already reviewed");
  expect((await run(["verify", "approve", "x1"])).err).toContain("Give a submission number");
  expect((await run(["verify", "list", "--status", "rejected"])).out).toContain("MC number not found at FMCSA");
  // The owner is told on the bell and their channels by a notify job.
  const jobs = await db.rows<{ payload: string }>("SELECT payload FROM jobs WHERE kind = 'notify' ORDER BY id");
  expect(jobs.map((j) => JSON.parse(String(j.payload)).event)).toEqual([
    "verification_approved",
    "verification_rejected",
  ]);

  expect((await run(["user", "operator", "trucker@example.com"])).out.trim()).toBe(
    "trucker@example.com is now an operator.",
  );
  expect(await db.rows("SELECT user_id FROM operators")).toEqual([{ user_id: b }]);
  expect((await run(["user", "operator", "trucker@example.com", "--off"])).out.trim()).toBe(
    "trucker@example.com is no longer an operator.",
  );
  expect(await db.rows("SELECT user_id FROM operators")).toEqual([]);
  expect((await run(["user", "operator", "nobody@example.com"])).err).toContain("No account has the email");
});
