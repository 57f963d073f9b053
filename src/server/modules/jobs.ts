// Every module's job definitions, in one registry: what a worker runs. Only here are the modules' jobs gathered, as
// trpc/root.ts gathers their routers; the queue (src/server/jobs/) knows no feature.

import type { TBoardServices } from "../integrations/boards/services";
import type { TNotifierRegistry } from "../integrations/notifiers/registry";
import type { TStoreServices } from "../integrations/stores/services";
import type { TAnyJob } from "../jobs/queue";
import { bindJobs, runWorker, type TJobRegistry } from "../jobs/worker";
import type { TServices } from "../services";
import { ACCOUNTS_JOBS } from "./accounts/jobs";
import { BILLING_JOBS } from "./billing/jobs";
import { BOARDS_JOBS } from "./boards/jobs";
import { FX_JOBS } from "./fx/jobs";
import { LOADS_JOBS } from "./loads/jobs";
import { NOTIFICATIONS_JOBS } from "./notifications/jobs";
import { PAYMENTS_JOBS } from "./payments/jobs";
import { PLATFORM_JOBS } from "./platform/jobs";
import { SAVED_SEARCHES_JOBS } from "./saved-searches/jobs";
import { STORES_JOBS } from "./stores/jobs";
import { TRIPS_JOBS } from "./trips/jobs";
import { WEBHOOKS_JOBS } from "./webhooks/jobs";

export const JOBS: TAnyJob[] = [
  ...PLATFORM_JOBS,
  ...FX_JOBS,
  ...LOADS_JOBS,
  ...SAVED_SEARCHES_JOBS,
  ...BOARDS_JOBS,
  ...STORES_JOBS,
  ...BILLING_JOBS,
  ...NOTIFICATIONS_JOBS,
  ...ACCOUNTS_JOBS,
  ...TRIPS_JOBS,
  ...PAYMENTS_JOBS,
  ...WEBHOOKS_JOBS,
];

/** Every kind, bound to the process's services and its public origin. */
export const jobRegistry = (services: TServices, baseUrl: string) => bindJobs(JOBS, services, baseUrl);

/**
 * The kinds that can run with only these services (tests give a worker the notifiers, and the boards or stores when
 * they sync): the others are left out, as a worker without them would not run them.
 */
export const jobHandlers = (deps: {
  notifiers: TNotifierRegistry;
  baseUrl: string;
  boards?: TBoardServices;
  stores?: TStoreServices;
}): TJobRegistry =>
  bindJobs(JOBS, { notifiers: deps.notifiers, boards: deps.boards, stores: deps.stores }, deps.baseUrl);

/** A job worker over the registry (by default the kinds that need no outside service, and their schedules). */
export const startWorker = (o: Omit<Parameters<typeof runWorker>[0], "handlers"> & { handlers?: TJobRegistry }) =>
  runWorker({ ...o, handlers: o.handlers ?? bindJobs(JOBS, {}, "") });
