// What each engine answers behind the handle's `q`: the queries drizzle's shared subset cannot say (near-me through the
// engine's own index, board figures, trips' last positions, alert matching, row claiming and locks, bulk upserts).
// db/sqlite/queries.ts and db/pg/queries.ts both build a `TQueries`, so the two engines cannot offer different
// functions or shapes: a change to one that the other lacks fails the type check.
import type { TLoadSearchInput } from "../src/shared/schemas/loads";
import type { TTruckSearchInput } from "../src/shared/schemas/trucks";
import type { TTx } from "./client";
import type { Load, NewLoad, Truck } from "./schema";

/** What a search page is made of: the page's loads in order, and whether another page exists. */
export type TSearchRows = { rows: Load[]; hasMore: boolean };
export type TBoardStatsRow = { total: number; urgent: number; avgUsdPerMile: number | null; external: number };
export type TLastPosition = { loadId: number; latitude: number; longitude: number; recordedAt: number };
/** An alert whose box holds the point and that takes the equipment; the caller checks the exact circle. */
export type TAlertCandidate = { userId: number; latitude: number; longitude: number; radiusMiles: number };

/** A page of trucks found near a pickup, nearest first, each with its distance. */
export type TTruckRows = { rows: (Truck & { distanceMiles: number })[]; hasMore: boolean };

export type TQueries = {
  /** One page of the board: the loads the viewer may see that match the filters, in the order asked. */
  searchLoads: (p: TLoadSearchInput, viewerId: number | null) => Promise<TSearchRows>;
  /** Figures for the board's stat cards over everything the filters match (not only the page shown). */
  boardStats: (p: TLoadSearchInput, viewerId: number | null, now: number) => Promise<TBoardStatsRow | undefined>;
  /**
   * Whether the load is one the search would find for the viewer (every filter and radius as `searchLoads` applies
   * them, read through the load's primary key): saved searches' matching of a new load.
   */
  matchesLoad: (p: TLoadSearchInput, viewerId: number | null, loadId: number) => Promise<boolean>;
  /**
   * Trucks available near a pickup (`now` hides those past their available-to date), nearest first, through the
   * engine's index of truck origins; the destination, window, equipment and capacity as the search asks.
   */
  searchTrucks: (p: TTruckSearchInput, now: number) => Promise<TTruckRows>;
  /** The newest recorded position of each of these loads, in one query. */
  lastPositions: (loadIds: number[]) => Promise<TLastPosition[]>;
  /** Load alerts of available drivers whose area's bounding box holds the point and that take the equipment. */
  alertCandidates: (lat: number, lng: number, equipment: string) => Promise<TAlertCandidate[]>;
  /**
   * Serializes transactions over the same keys (sign-in attempts of one account or address), inside the transaction
   * `tx` of the caller: on SQLite nothing to do (its transactions hold the write lock already), on PostgreSQL advisory
   * locks taken through `tx`.
   */
  lockKeys: (tx: object, keys: string[]) => Promise<void>;
  /**
   * Runs `work` in a write transaction that other writes may share: on SQLite the writes that queue while one
   * transaction runs are done together in the next one, each in its own savepoint and each answered after its COMMIT
   * (db/shared-transaction.ts); on PostgreSQL a transaction of its own. For small, frequent writes (positions).
   */
  sharedTransaction: <T>(work: (tx: TTx) => Promise<T>) => Promise<T>;
  /** A select that claims the rows it reads, skipping rows another transaction has claimed. */
  skipLocked: <T>(query: T) => T;
  /** Board sync's writes: inserts, or updates of the row with the same (configuration, external id). */
  upsertExternalLoads: (rows: NewLoad[]) => Promise<void>;
  /**
   * The version of what shippers' trust signals are read from, as committed: triggers bump it with every write to those
   * tables (both engines' trust_version migrations), so a cache of the signals is good while it stays the same.
   */
  trustVersion: () => Promise<number>;
  /**
   * The board version (loads, board configurations, truck invitations, exchange rates: both engines' board_version
   * migrations) and the trust version together, as committed, in one read: a kept board page is good while both stay.
   */
  cacheVersions: () => Promise<{ board: number; trust: number }>;
  /**
   * Whether a write after board version `from`, up to `to`, may have changed a page whose loads' pickups lie in these
   * one-degree cells (latitude + 90, longitude + 180, inclusive ranges): a change logged in one of them or for every
   * page, or a log that no longer reaches back to `from` (it keeps 100,000 versions).
   */
  boardChangedSince: (
    from: number,
    to: number,
    cells: { latFrom: number; latTo: number; lngFrom: number; lngTo: number },
  ) => Promise<boolean>;
};
