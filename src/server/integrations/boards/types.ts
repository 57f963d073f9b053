import type { TEquipmentType } from "../../../shared/constants";
import type { TMessage } from "../../errors";

// What every load-board adapter offers, whatever its wire format (DAT REST, Truckstop SOAP, 123Loadboard REST, our
// JSON feed). Adapters build requests and parse answers; the domain (src/server/modules/boards) stores, merges and
// schedules.

export const BOARD_PROVIDERS = ["dat", "truckstop", "123loadboard", "other"] as const;
export type TBoardProvider = (typeof BOARD_PROVIDERS)[number];

/**
 * The credential fields each provider takes (dat takes clientId and clientSecret, truckstop username,
 * password and integrationId). DAT's clientId/clientSecret are the service account's email and password, userEmail the
 * DAT user the searches run as. 123Loadboard: the OAuth client of a 123Loadboard API app, optional: without one the
 * server's own app (LOADBOARD123_CLIENT_ID) is used; the user's own authorization comes from Connect 123Loadboard.
 * other: the feed's API key (optional).
 */
export const BOARD_CREDENTIAL_FIELDS = {
  dat: ["clientId", "clientSecret", "userEmail"],
  truckstop: ["username", "password", "integrationId"],
  "123loadboard": ["clientId", "clientSecret"],
  other: ["apiKey"],
} as const satisfies Record<TBoardProvider, readonly string[]>;
/** Fields that must be set for the provider (the others may be empty). */
export const BOARD_REQUIRED_FIELDS = {
  dat: ["clientId", "clientSecret", "userEmail"],
  truckstop: ["username", "password", "integrationId"],
  "123loadboard": [],
  other: [],
} as const satisfies Record<TBoardProvider, readonly string[]>;

export const BOARD_NAMES: Record<TBoardProvider, string> = {
  dat: "DAT",
  truckstop: "Truckstop",
  "123loadboard": "123Loadboard",
  other: "Load feed",
};

export type TBoardSettings = {
  provider: TBoardProvider;
  /** The configuration's own name, used in errors ("DAT One (Addis office)"). */
  name: string;
  baseUrl: string;
  credentials: Record<string, string>;
  timeoutMs: number;
  /** The configuration's budget of calls per hour (rateLimitPerHour); the adapter refuses calls beyond it. */
  rateLimitPerHour: number;
  /**
   * The operator's Sandbox origins (emulators in demo mode and tests, SANDBOX_ORIGINS): a base URL there may be plain
   * http on loopback. Every other address goes through the outgoing-call guard as a public https host.
   */
  sandboxOrigins?: readonly string[];
  /** Boards that search with a user's own authorization (123Loadboard): where the user's tokens are kept. */
  userAuth?: TBoardUserAuth;
};

/** A user's OAuth tokens for a board (authorization-code grant): sealed at rest, never shown. */
export type TBoardUserTokens = {
  accessToken: string;
  /** Epoch ms the access token stops working. */
  expiresAt: number;
  /** Null when the board gave none: the user has to connect again once the access token expires. */
  refreshToken: string | null;
};

/**
 * Where a configuration's user tokens live (the database, shared by every process). `save` replaces exactly the
 * tokens it was given as `previous` and answers false when another process changed them first (a refresh elsewhere);
 * `refused` marks the configuration as needing a new connection, unless the tokens changed meanwhile.
 */
export type TBoardUserAuth = {
  load: () => Promise<TBoardUserTokens | null>;
  save: (next: TBoardUserTokens, previous: TBoardUserTokens) => Promise<boolean>;
  refused: (reason: string, previous: TBoardUserTokens) => Promise<void>;
};

export type TBoardPlace = {
  city: string;
  /** State or province code where the board gives one. */
  state: string | null;
  /** ISO 3166 alpha-2 country code. */
  country: string;
  /** Coordinates when the board gives them; null when the domain has to look the place up. */
  latitude: number | null;
  longitude: number | null;
  postalCode?: string | null;
};

export type TBoardSearch = {
  origin: { latitude: number; longitude: number; city?: string | null; state?: string | null; country?: string | null };
  radiusMiles: number;
  destination?: { latitude: number; longitude: number; city?: string | null; state?: string | null } | null;
  /** How far from the destination a delivery may be; the origin's radius when not given. */
  destinationRadiusMiles?: number | null;
  equipmentType?: TEquipmentType | null;
  limit: number;
};

export type TBoardContact = {
  company: string | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  mcNumber: string | null;
};

/** One load as a board lists it, mapped to our vocabulary. */
export type TBoardLoad = {
  externalId: string;
  title: string;
  description: string | null;
  pickup: TBoardPlace;
  delivery: TBoardPlace;
  /** Epoch ms; the board's earliest pickup. */
  pickupDate: number;
  /** Epoch ms; the board's delivery date, or null when it gives none. */
  deliveryDate: number | null;
  weightLbs: number | null;
  equipmentType: TEquipmentType;
  /** The posted rate in minor units, or null when the board shows none. */
  rateMinor: number | null;
  currency: string;
  /** Trip miles as the board gives them, or null. */
  tripMiles: number | null;
  contact: TBoardContact;
  /** Epoch ms the poster entered or last changed the load, when given. */
  postedAt: number | null;
};

/** A load the board listed that could not be read: its id when it has one, the field at fault and why. */
export type TBoardSkip = { id: string | null; field: string; reason: string };

/** What one search found: the loads that could be read, and those that could not (each on its own). */
export type TBoardResult = { loads: TBoardLoad[]; skipped: TBoardSkip[] };

export type TLoadBoardAdapter = {
  provider: TBoardProvider;
  /** "DAT", "Truckstop"…: names the board in errors and badges. */
  boardName: string;
  /** Emulator or test hosts: shown as "Sandbox". */
  sandbox: boolean;
  /** Proves the credentials with a real call; throws an AppError naming the board and its reason. */
  test: () => Promise<void>;
  /** A live search of the board; throws an AppError naming the board on failure. */
  search: (q: TBoardSearch) => Promise<TBoardResult>;
  /**
   * Why the board cannot search around this origin (Truckstop needs a North American state), or null: the domain asks
   * before searching, and shows the reason instead of sending a request the board would refuse.
   */
  outsideArea?: (q: TBoardSearch) => TMessage | null;
};
