/**
 * The identity layer's session reads answer with each session's token, which is a bearer
 * credential: any script on the origin could copy it. The session cookie is HttpOnly so that no
 * script reads it; these answers must not hand it out either. Nothing of Palisade reads the token
 * from them (the web app reads the user and the session's id, expiry and tenant).
 */
const SESSION_READS = new Set(["/api/auth/get-session", "/api/auth/list-sessions"]);

export function isSessionRead(pathname: string): boolean {
  return SESSION_READS.has(pathname);
}

/** The JSON answer of a session read, without any session's token. */
export function withoutSessionTokens(body: string): string {
  const value: unknown = JSON.parse(body);
  const strip = (session: unknown) => {
    if (session && typeof session === "object" && "token" in session) {
      const { token: _token, ...rest } = session as Record<string, unknown>;
      return rest;
    }
    return session;
  };
  if (Array.isArray(value)) return JSON.stringify(value.map(strip));
  if (value && typeof value === "object" && "session" in value)
    return JSON.stringify({ ...value, session: strip((value as { session: unknown }).session) });
  return body;
}
