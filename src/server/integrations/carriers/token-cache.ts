export type TToken = { accessToken: string; expiresAt: number };

/**
 * An OAuth client-credentials token, kept until shortly before it expires (a minute, or a tenth of its life when
 * shorter). Concurrent callers share one refresh.
 */
export class TokenCache {
  private token: TToken | null = null;
  private pending: Promise<TToken> | null = null;

  constructor(private readonly fetchToken: () => Promise<TToken>) {}

  async get(now = Date.now()): Promise<string> {
    const t = this.token;
    if (t) {
      const margin = Math.min(60_000, (t.expiresAt - now) / 10);
      if (now < t.expiresAt - margin) return t.accessToken;
    }
    this.pending ??= this.fetchToken()
      .then((fresh) => {
        this.token = fresh;
        return fresh;
      })
      .finally(() => {
        this.pending = null;
      });
    return (await this.pending).accessToken;
  }

  /** Whether a token is at hand, so that the next call needs no token request. */
  has(now = Date.now()): boolean {
    const t = this.token;
    return t !== null && now < t.expiresAt - Math.min(60_000, (t.expiresAt - now) / 10);
  }

  /** After a 401: the carrier no longer honours the token. */
  invalidate() {
    this.token = null;
  }
}
