// Test helper: jobs of a test's own kinds, each a bare handler that takes any payload (the queue's tests exercise the
// worker's loop, leases and stopping, not a feature's payload).
import { z } from "zod";
import { backoffMs } from "../queue";
import type { TJobRegistry, TRunnableJob } from "../worker";

export const bareHandlers = (handlers: Record<string, TRunnableJob["run"]>): TJobRegistry =>
  Object.fromEntries(
    Object.entries(handlers).map(([kind, run]) => [
      kind,
      { kind, schema: z.unknown(), maxAttempts: 5, backoff: backoffMs, run },
    ]),
  );
