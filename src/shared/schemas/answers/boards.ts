import { z } from "zod";
import { MARKETPLACE_PROVIDERS } from "../boards";
import { ZBoardConfig, ZLane, ZLoad, ZLoadBoardTag } from "./common";

export const ZBoardsListAnswer = z.array(ZBoardConfig);
export const ZBoardsTestAnswer = z.object({
  message: z.string(),
  connected: z.literal(true),
  provider: z.enum(MARKETPLACE_PROVIDERS),
  name: z.string(),
});
export const ZBoardsConnectAnswer = z.object({ url: z.string() });
export const ZBoardsSearchAnswer = z.object({
  results: z.array(
    ZLoad.extend({
      externalId: z.string(),
      origin: z.object({ city: z.string(), state: z.string().nullable(), country: z.string() }),
      destination: z.object({ city: z.string(), state: z.string().nullable(), country: z.string() }),
      board: ZLoadBoardTag.nullable(),
    }),
  ),
  searchedFrom: z.object({
    latitude: z.number(),
    longitude: z.number(),
    city: z.string().nullable().optional(),
    state: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
  }),
  unreadable: z.number(),
});
export const ZBoardsLanesAnswer = z.array(ZLane);
export const ZBoardsSyncStatusAnswer = z.object({
  isRunning: z.boolean(),
  intervalMinutes: z.number(),
  lastSyncTimes: z.record(z.string(), z.string()),
  nextSyncInMinutes: z.number().nullable(),
});
export const ZBoardsSyncManualAnswer = z.object({ message: z.string(), queued: z.number() });
export const ZBoardsHistoryAnswer = z.array(
  z.object({
    id: z.number(),
    configId: z.number(),
    name: z.string(),
    provider: z.enum(MARKETPLACE_PROVIDERS),
    trigger: z.enum(["schedule", "manual"]),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    found: z.number(),
    created: z.number(),
    updated: z.number(),
    expired: z.number(),
    unreadable: z.number(),
    lanesOutside: z.number(),
    durationMs: z.number().nullable(),
    error: z.string().nullable(),
  }),
);
