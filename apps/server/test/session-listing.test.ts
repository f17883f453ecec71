import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "./support/test-server";

describe("the identity layer's session reads", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("get-session and list-sessions never return a session token, and still say who is signed in", async () => {
    const signIns = [
      await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD),
      await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD),
    ];
    const PREFIX = "palisade.session_token=";
    const sessionCookie = (response: Response) =>
      response.headers
        .getSetCookie()
        .find((c) => c.startsWith(PREFIX))
        ?.split(";")[0] ?? "";
    // The cookie holds the token and its signature; the token alone signs in as a bearer.
    const tokens = signIns.map(
      (r) => decodeURIComponent(sessionCookie(r).slice(PREFIX.length)).split(".")[0] ?? "",
    );
    const cookie = sessionCookie(signIns[0] as Response);
    const read = (path: string) =>
      fetch(`${server.url}/api/auth${path}`, { headers: { cookie, origin: server.url } });

    const session = await read("/get-session");
    expect(session.status).toBe(200);
    const sessionText = await session.text();
    const current = JSON.parse(sessionText) as { user: { email: string }; session: Record<string, unknown> };
    expect(current.user.email).toBe(ADMIN_EMAIL);
    expect(current.session).toMatchObject({ id: expect.any(String), expiresAt: expect.any(String) });
    expect(current.session).not.toHaveProperty("token");

    const listing = await read("/list-sessions");
    expect(listing.status).toBe(200);
    const listingText = await listing.text();
    const sessions = JSON.parse(listingText) as Record<string, unknown>[];
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const entry of sessions) expect(entry).not.toHaveProperty("token");

    for (const token of tokens) {
      expect(token.length).toBeGreaterThan(20);
      expect(sessionText).not.toContain(token);
      expect(listingText).not.toContain(token);
    }
  });
});
