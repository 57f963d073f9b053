import { z } from "zod";
import { API_SCOPES } from "../api-scopes";
import { zText } from "./text";

export const ZCreateTokenInput = z.object({
  name: zText().trim().min(1, "name is required").max(60, "name must be at most 60 characters"),
  scopes: z
    .array(z.enum(API_SCOPES, { error: `scopes must be among ${API_SCOPES.join(", ")}` }), {
      error: "scopes must be a list of scopes",
    })
    .min(1, "scopes must name at least one scope")
    .max(API_SCOPES.length, "scopes lists a scope twice"),
});
export type TCreateTokenInput = z.infer<typeof ZCreateTokenInput>;
