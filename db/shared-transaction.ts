// Group commit for SQLite's hot write paths (a driver's batch of positions): a COMMIT is the dearest statement of a
// small write transaction (it appends every page the transaction touched to the WAL), and one process's transactions
// take turns anyway (the gate in client.ts), so writes that queue while one transaction runs are done together in the
// next one. Each write runs in its own savepoint, so a write that fails (a 400 for a bad point) undoes only its own
// statements; each caller is answered only after the COMMIT that holds its write, so an answer never promises a write
// a later failure could lose.

/** At most this many writes share one transaction, so no write waits behind an unbounded group. */
export const GROUP_LIMIT = 64;

type TTransactional<Tx> = {
  transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
};
type TNested<Tx> = { transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> };

type TJob<Tx> = {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** Runs `work` in a write transaction shared with the writes that queued meanwhile (see above). */
export const createSharedTransactions = <Tx extends TNested<Tx>>(db: TTransactional<Tx>) => {
  const queue: TJob<Tx>[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    try {
      while (queue.length) {
        const group = queue.splice(0, GROUP_LIMIT);
        const settled: { job: TJob<Tx>; ok: boolean; value: unknown }[] = [];
        try {
          await db.transaction(async (tx) => {
            for (const job of group) {
              try {
                settled.push({ job, ok: true, value: await tx.transaction((sp) => job.work(sp)) });
              } catch (error) {
                settled.push({ job, ok: false, value: error });
              }
            }
          });
        } catch (error) {
          // The COMMIT (or BEGIN) failed: nothing of the group was written.
          for (const job of group) job.reject(error);
          continue;
        }
        for (const s of settled) (s.ok ? s.job.resolve : s.job.reject)(s.value);
      }
    } finally {
      running = false;
    }
  };
  return <T>(work: (tx: Tx) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (!running) void drain();
    });
};
