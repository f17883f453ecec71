/** The session is refreshed this long before it expires (spec section 9). */
export const REFRESH_BEFORE_EXPIRY_MS = 20_000;
/** Longest delay a browser timer takes (2^31 - 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long to wait before refreshing a session that expires at `expiresAt`. */
export function refreshDelayMs(expiresAt: Date, now: number): number {
  const delay = expiresAt.getTime() - REFRESH_BEFORE_EXPIRY_MS - now;
  return Math.min(MAX_TIMER_MS, Math.max(0, delay));
}

/** Whether a tab coming back into view should refresh the session at once (its timer was due). */
export function refreshIsDue(expiresAt: Date, now: number): boolean {
  return refreshDelayMs(expiresAt, now) === 0;
}

interface KeepAliveOptions {
  /** Reads the session from the server, which extends it when due; null when it has ended. */
  refresh: () => Promise<{ session: { expiresAt: string } } | null>;
  onSignedOut: () => void;
  now?: () => number;
}

/**
 * Keeps the session alive while the app is open: refreshes it 20 s before it expires, and when
 * the tab becomes visible again once that time has passed (background tabs' timers are held
 * back). Returns the function that stops it.
 */
export function startSessionRefresh(initialExpiresAt: Date, options: KeepAliveOptions): () => void {
  const now = options.now ?? Date.now;
  let expiresAt = initialExpiresAt;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(refresh, refreshDelayMs(expiresAt, now()));
  };
  const refresh = async () => {
    const session = await options.refresh().catch(() => undefined);
    if (stopped) return;
    // A failed request (offline) is tried again later; only the server's "no session" ends it.
    if (session === null) {
      stopped = true;
      options.onSignedOut();
      return;
    }
    if (session) expiresAt = new Date(session.session.expiresAt);
    else expiresAt = new Date(now() + REFRESH_BEFORE_EXPIRY_MS + 30_000);
    schedule();
  };
  const onVisible = () => {
    if (document.visibilityState === "visible" && refreshIsDue(expiresAt, now())) void refresh();
  };
  document.addEventListener("visibilitychange", onVisible);
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", onVisible);
  };
}
