import { z } from "zod";
import { API_SCOPES } from "../../api-scopes";
import { ZPublicToken } from "./common";

export const ZTokensListAnswer = z.array(ZPublicToken);
export const ZTokensCreateAnswer = z.object({
  token: z.string(),
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
