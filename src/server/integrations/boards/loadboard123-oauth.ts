// 123Loadboard's OAuth2: load search needs the authorization of a 123Loadboard user (the authorization-code grant), not
// client credentials. The user is sent to {base}/authorize (scope loadsearching, and offline_access for a refresh
// token; PKCE S256, which a server that does not know it ignores), comes back to our callback with a code, and the code
// is exchanged at {base}/token with the app's client id and secret (HTTP Basic). The access token expires (expires_in);
// a refresh (grant_type=refresh_token) may answer a new refresh token, which then replaces the old one: the old one
// must be taken as spent. A refused refresh means the user has to connect again.
//
// 123Loadboard's documentation is not public: paths, parameters and the scope names follow integrators' code, and
// emulators/boards/loadboard123.ts implements the same reading.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../errors";
import { exchange, parseWire, readJson, type TExchange, trimBase } from "../http/kit";
import { boardNumber, failOnStatus, jsonReason } from "./http";
import { BOARD_NAMES, type TBoardSettings, type TBoardUserAuth, type TBoardUserTokens } from "./types";

/** The headers 123Loadboard requires on every call. */
export const LB123_HEADERS = {
  "123LB-Api-Version": "1.3",
  "123LB-AID": "mytess",
  "User-Agent": "MyTess (support@mytess.app)",
} as const;

/** What MyTess asks the user to allow: searching loads, and a refresh token to keep doing so. */
export const LB123_SCOPE = "loadsearching offline_access";

/** Where 123Loadboard sends the user back: the redirect URI to register with 123Loadboard, after PUBLIC_URL. */
export const LB123_CALLBACK_PATH = "/api/marketplaces/123loadboard/callback";

/** A PKCE verifier (43 characters of base64url) and its S256 challenge. */
export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** The authorize address the user's browser is sent to. */
export const lb123AuthorizeUrl = (
  baseUrl: string,
  o: { clientId: string; redirectUri: string; state: string; codeChallenge: string },
) =>
  `${trimBase(baseUrl)}/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    scope: LB123_SCOPE,
    state: o.state,
    code_challenge: o.codeChallenge,
    code_challenge_method: "S256",
  })}`;

const ZToken = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string()]).nullish(),
  refresh_token: z.string().min(1).nullish(),
});

/** An OAuth error body's `error` code (invalid_grant, invalid_client…), if any. */
const oauthError = (res: TExchange) => {
  try {
    const e = (JSON.parse(res.text) as { error?: unknown }).error;
    return typeof e === "string" ? e : null;
  } catch {
    return null;
  }
};

/** The app's client, as HTTP Basic credentials. */
const basicOf = (s: TBoardSettings) =>
  Buffer.from(`${s.credentials.clientId ?? ""}:${s.credentials.clientSecret ?? ""}`).toString("base64");

const tokenCall = (s: TBoardSettings, form: Record<string, string>) =>
  exchange(
    BOARD_NAMES["123loadboard"],
    `${trimBase(s.baseUrl)}/token`,
    {
      method: "POST",
      headers: {
        ...LB123_HEADERS,
        Authorization: `Basic ${basicOf(s)}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: new URLSearchParams(form).toString(),
    },
    s.timeoutMs,
    { trusted: s.sandboxOrigins },
  );

const tokensOf = (res: TExchange, keepRefresh: string | null): TBoardUserTokens => {
  const board = BOARD_NAMES["123loadboard"];
  failOnStatus(board, res);
  const t = parseWire(board, ZToken, readJson(board, res));
  const seconds = boardNumber(t.expires_in) ?? 3600;
  return {
    accessToken: t.access_token,
    expiresAt: Date.now() + seconds * 1000,
    // A refresh that answers no new refresh token leaves the old one in use.
    refreshToken: t.refresh_token ?? keepRefresh,
  };
};

/** The code from the callback exchanged for the user's tokens (the same redirect URI and the PKCE verifier). */
export const lb123ExchangeCode = async (
  s: TBoardSettings,
  o: { code: string; redirectUri: string; codeVerifier: string },
): Promise<TBoardUserTokens> =>
  tokensOf(
    await tokenCall(s, {
      grant_type: "authorization_code",
      code: o.code,
      redirect_uri: o.redirectUri,
      code_verifier: o.codeVerifier,
    }),
    null,
  );

/** The connection is gone (no tokens, or 123Loadboard refused the refresh): the user connects again. */
export const notConnected = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.board.notConnected",
      message: "{service} is not connected: use Connect 123Loadboard on the Marketplaces page",
      values: { service: BOARD_NAMES["123loadboard"] },
    },
  );

export const reconnectNeeded = (reason: string) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.board.reconnect",
      message:
        "{service} no longer accepts the connection ({reason}): use Reconnect 123Loadboard on the Marketplaces page",
      values: { service: BOARD_NAMES["123loadboard"], reason },
    },
  );

/**
 * A configuration's user tokens in use: read from the store once, renewed shortly before they expire (and after a
 * 401), the renewal shared by concurrent callers of this process and saved for the others. A refresh another process
 * made first is picked up rather than refused; a refresh 123Loadboard refuses marks the configuration for reconnecting.
 */
export const userTokens = (s: TBoardSettings, auth: TBoardUserAuth | undefined) => {
  let current: TBoardUserTokens | null = null;
  let renewing: Promise<TBoardUserTokens> | null = null;

  const stored = async () => {
    const t = auth ? await auth.load() : null;
    if (!t) throw notConnected();
    return t;
  };

  const refresh = async (used: TBoardUserTokens): Promise<TBoardUserTokens> => {
    // Another process may have renewed them already: its tokens are the ones that work now.
    const latest = await stored();
    if (latest.refreshToken !== used.refreshToken && latest.expiresAt - 60_000 > Date.now()) return latest;
    if (!latest.refreshToken) {
      await auth!.refused("no refresh token", latest);
      throw reconnectNeeded("no refresh token");
    }
    const res = await tokenCall(s, { grant_type: "refresh_token", refresh_token: latest.refreshToken });
    const error = oauthError(res);
    if (res.status === 400 && (error === "invalid_grant" || error === "invalid_token")) {
      const again = await stored();
      if (again.refreshToken !== latest.refreshToken) return again;
      const reason = jsonReason(res.text) ?? error;
      await auth!.refused(reason, latest);
      throw reconnectNeeded(reason);
    }
    const next = tokensOf(res, latest.refreshToken);
    if (await auth!.save(next, latest)) return next;
    // Saved by another process meanwhile (its refresh came first): use what is stored.
    return stored();
  };

  return {
    /** A working access token. */
    async get(): Promise<string> {
      current ??= await stored();
      if (current.expiresAt - 60_000 > Date.now()) return current.accessToken;
      return (await this.renew()).accessToken;
    },
    /** Renews now (after a 401): once for every caller waiting. */
    async renew(): Promise<TBoardUserTokens> {
      const used = current ?? (await stored());
      renewing ??= refresh(used)
        .then((t) => {
          current = t;
          return t;
        })
        .finally(() => {
          renewing = null;
        });
      return renewing;
    },
    /** Forget what is in memory (the next call reads the store). */
    forget() {
      current = null;
    },
  };
};
