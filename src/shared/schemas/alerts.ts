import { z } from "zod";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../constants";

/** PUT /api/messaging/load-alerts: a driver's alerts for new loads near them. */
export const ZLoadAlertsInput = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
  radiusMiles: z
    .number({ error: `radiusMiles must be one of ${RADIUS_OPTIONS.join(", ")}` })
    .refine((n) => (RADIUS_OPTIONS as readonly number[]).includes(n), {
      message: `radiusMiles must be one of ${RADIUS_OPTIONS.join(", ")}`,
    }),
  equipmentTypes: z
    .array(z.enum(EQUIPMENT_TYPES, { error: `equipmentTypes must be among ${EQUIPMENT_TYPES.join(", ")}` }))
    .max(EQUIPMENT_TYPES.length),
});
export type TLoadAlertsInput = z.infer<typeof ZLoadAlertsInput>;
