// Preloaded by `bun test` (bunfig.toml): the `timeout` key there is not applied by Bun 1.4, so slow tests (password
// hashing, spawned servers and CLI processes on a loaded 2-core machine) get their room here. This default reaches only
// the first test file Bun runs, so every slow test file also calls `setDefaultTimeout(60_000)` itself.
import { afterAll, setDefaultTimeout } from "bun:test";
import { dropTestTemplate } from "../db/client";

setDefaultTimeout(60_000);

// On PostgreSQL the run's test databases are copies of one migrated template; it goes when every file has run.
afterAll(dropTestTemplate);
