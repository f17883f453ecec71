import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFlowEngines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

describe.each(identityFlowEngines)("password policy on %s", (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(engine, {
      ALLOW_SIGN_UP: "true",
      PASSWORD_REQUIRED_CLASSES: "uppercase,digit,symbol",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    });
  }

  it("is readable without signing in", async () => {
    const response = await fetch(`${server.url}/api/password-policy`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      minLength: 10,
      maxLength: 128,
      requiredClasses: ["uppercase", "digit", "symbol"],
    });
  });

  it("refuses a sign-up password that breaks a rule, naming the rule", async () => {
    const email = `policy-${engine}@palisade.test`;
    const short = await post("/sign-up/email", { email, name: "Pat", password: "Aa1-" });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({
      code: "PASSWORD_POLICY",
      message: "Password must be at least 10 characters long",
    });
    const plain = await post("/sign-up/email", { email, name: "Pat", password: "only lowercase letters" });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { message: string }).message).toBe(
      "Password must contain an uppercase letter, a digit",
    );
    const good = await post("/sign-up/email", { email, name: "Pat", password: "Policy-password-1" });
    expect(good.status).toBe(200);
  });

  it("applies to a reset and to a change of password", async () => {
    const reset = await post("/reset-password", { token: "a".repeat(24), newPassword: "NoDigitsHere!" });
    expect(reset.status).toBe(400);
    expect(((await reset.json()) as { message: string }).message).toBe("Password must contain a digit");

    const member = await server.addMember({ role: "EDITOR" });
    const token = member.credentials.kind === "bearer" ? member.credentials.token : "";
    const change = await post(
      "/change-password",
      { currentPassword: "whatever-it-is", newPassword: "NOSYMBOLS123" },
      { authorization: `Bearer ${token}` },
    );
    expect(change.status).toBe(400);
    expect(((await change.json()) as { message: string }).message).toBe(
      "Password must contain a symbol or space",
    );
  });
});
