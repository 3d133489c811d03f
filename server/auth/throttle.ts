// Login throttling: after `max` failures for the same e-mail from the same IP inside a sliding window,
// further attempts are refused until the oldest failure leaves the window. In memory, because Hermes runs
// as one process; a multi-instance deployment would move this to the database.

export interface ThrottleOptions {
  max: number;
  windowMs: number;
  /** Injected for tests; defaults to Date.now. */
  now?: () => number;
}

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;
  private calls = 0;

  constructor(private readonly options: ThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  static key(email: string, ip: string): string {
    return `${email.trim().toLowerCase()}|${ip}`;
  }

  /** Seconds to wait when blocked, else 0. */
  retryAfterS(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.options.max) return 0;
    const oldest = recent[recent.length - this.options.max]!;
    return Math.max(1, Math.ceil((oldest + this.options.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    if (++this.calls % 1000 === 0) this.sweep();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.options.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  /** Drops keys whose failures all left the window, so memory stays bounded. */
  private sweep(): void {
    for (const key of [...this.failures.keys()]) {
      if (this.recent(key).length === 0) this.failures.delete(key);
    }
  }
}
