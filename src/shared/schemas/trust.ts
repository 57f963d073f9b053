import { z } from "zod";

export const ZCompanyProfileInput = z.object({
  id: z.number({ error: "id must be a number" }).int("id must be a whole number").positive("id must be positive"),
});
