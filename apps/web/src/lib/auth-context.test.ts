import { describe, expect, it } from "vitest";
import { createAuthContext, fetchSession, type SessionData } from "./auth-context";

const session: SessionData = {
  user: { id: "u1", email: "ada@example.com", name: "Ada Lovelace" },
  session: { id: "s1", expiresAt: "2030-01-01T00:00:00.000Z" },
};

describe("createAuthContext", () => {
  it("asks the server once, reuses the answer for 30 s, and again after invalidate", async () => {
    let calls = 0;
    let clock = 0;
    const auth = createAuthContext(
      async () => {
        calls++;
        return session;
      },
      () => clock,
    );
    await auth.getSession();
    await auth.getSession();
    expect(calls).toBe(1);
    clock = 30_001;
    await auth.getSession();
    expect(calls).toBe(2);
    auth.invalidate();
    await auth.getSession();
    expect(calls).toBe(3);
  });

  it("treats a failed session lookup as signed out", async () => {
    const auth = createAuthContext(async () => {
      throw new Error("offline");
    });
    await expect(auth.getSession()).resolves.toBeNull();
  });
});

describe("fetchSession", () => {
  const answer =
    (status: number, body: string): typeof fetch =>
    async () =>
      new Response(body, { status });

  it.each([
    ["a session", answer(200, JSON.stringify(session)), session],
    ["no session", answer(200, "null"), null],
    ["an error status", answer(500, "{}"), null],
    ["an unexpected shape", answer(200, '{"user":{}}'), null],
  ])("%s", async (_name, fetchImpl, expected) => {
    await expect(fetchSession(fetchImpl)).resolves.toEqual(expected);
  });
});
