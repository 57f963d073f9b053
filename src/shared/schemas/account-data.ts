import { z } from "zod";
import { ZSmsCode } from "./auth";
import { zText } from "./text";

/**
 * Deleting the account: the password, or for an account that signs in by phone the code just sent by SMS (one of
 * the two). The password is not checked for strength here: any text can be the old one.
 */
export const ZDeleteAccountInput = z
  .object({
    password: zText({ error: "password must be text" }).max(200, "password must be at most 200 characters").optional(),
    code: ZSmsCode.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password === undefined && v.code === undefined)
      ctx.addIssue({ code: "custom", path: ["password"], message: "password (or the code sent by SMS) is required" });
    if (v.password !== undefined && v.code !== undefined)
      ctx.addIssue({ code: "custom", path: ["code"], message: "give password or code, not both" });
    if (v.password === "")
      ctx.addIssue({ code: "custom", path: ["password"], message: "password (or the code sent by SMS) is required" });
  });
export type TDeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;
