import type { TStorageConfig } from "../config";
import { localStorage } from "./local";
import { s3Storage } from "./s3";
import type { TStorage } from "./types";

export type { TStorage, TStoredMeta } from "./types";

/** The storage the configuration names. */
export const storageFrom = (c: TStorageConfig): TStorage => (c.kind === "s3" ? s3Storage(c) : localStorage(c.dir));
