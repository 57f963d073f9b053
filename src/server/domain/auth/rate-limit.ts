import { AppError } from "../../errors";

type TWindow = { failures: number[] };

/**
 * Failed sign-ins are counted per account and per client address over a sliding window; past the limit, further
 * attempts are refused (even with the right password) until the oldest failure leaves the window.
 */
export class LoginThrottle {
  private readonly byKey = new Map<string, TWindow>();

  constructor(private readonly opts = { windowMs: 15 * 60 * 1000, maxPerAccount: 5, maxPerIp: 20 }) {}

  private recent(key: string, now: number) {
    const w = this.byKey.get(key);
    if (!w) return [];
    w.failures = w.failures.filter((t) => now - t < this.opts.windowMs);
    if (w.failures.length === 0) this.byKey.delete(key);
    return w.failures;
  }

  /** Throws TOO_MANY_REQUESTS when the account or the address has failed too often. */
  check(email: string, ip: string, now = Date.now()) {
    const checks: [string, number][] = [
      [`a:${email}`, this.opts.maxPerAccount],
      [`i:${ip}`, this.opts.maxPerIp],
    ];
    for (const [key, max] of checks) {
      const failures = this.recent(key, now);
      if (failures.length >= max) {
        const retryAfterSeconds = Math.max(1, Math.ceil((failures[0] + this.opts.windowMs - now) / 1000));
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
          { retryAfterSeconds },
        );
      }
    }
  }

  fail(email: string, ip: string, now = Date.now()) {
    for (const key of [`a:${email}`, `i:${ip}`]) {
      const w = this.byKey.get(key) ?? { failures: [] };
      w.failures.push(now);
      this.byKey.set(key, w);
    }
  }

  succeed(email: string) {
    this.byKey.delete(`a:${email}`);
  }
}

export const loginThrottle = new LoginThrottle();
