import { requestTimeoutMs } from "./request-limits";

export interface SessionData {
  user: { id: string; email: string; name: string };
  session: { id: string; expiresAt: string; activeOrganizationId?: string | null };
}

export function isSessionData(value: unknown): value is SessionData {
  if (!value || typeof value !== "object" || !("user" in value) || !("session" in value)) return false;
  const user = value.user;
  return !!user && typeof user === "object" && "id" in user && typeof user.id === "string";
}

/**
 * Reads the session from the auth server directly rather than through the auth client library, which
 * every page would otherwise load before showing anything.
 */
export async function fetchSession(fetchImpl: typeof fetch = fetch): Promise<SessionData | null> {
  const response = await fetchImpl("/api/auth/get-session", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  if (!response.ok) return null;
  const body: unknown = await response.json();
  return isSessionData(body) ? body : null;
}

export interface AuthContext {
  /** The current session, fetched once and reused until `invalidate` or until it is 30 s old. */
  getSession(): Promise<SessionData | null>;
  invalidate(): void;
}

const sessionReuseMs = 30_000;

export function createAuthContext(
  loadSession: () => Promise<SessionData | null> = () => fetchSession(),
  now: () => number = Date.now,
): AuthContext {
  let cached: { at: number; session: Promise<SessionData | null> } | null = null;
  return {
    getSession() {
      if (!cached || now() - cached.at > sessionReuseMs) {
        cached = { at: now(), session: loadSession().catch(() => null) };
      }
      return cached.session;
    },
    invalidate() {
      cached = null;
    },
  };
}
