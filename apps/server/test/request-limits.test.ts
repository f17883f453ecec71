import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestShapeEngines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

const LIMIT = 64 * 1024;
const PUBLIC_METHOD = "/palisade.policy.v1.PolicyService/ResolvePolicyKey";
const PRIVATE_METHOD = "/palisade.tenant.v1.TenantService/GetCurrent";

/** A key lookup request of about `size` bytes: one long deny message. */
function jsonBodyOf(size: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify({ text: "A".repeat(size) }));
}

describe.each(requestShapeEngines)("request body limits (%s)", (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine, { MAX_REQUEST_BYTES: String(LIMIT) });
    const member = await server.addMember({ role: "EDITOR" });
    if (member.credentials.kind !== "bearer") throw new Error("expected a bearer token");
    token = member.credentials.token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function expectHealthy() {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const lookup = await fetch(`${server.url}${PUBLIC_METHOD}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "ABCDEFG" }),
    });
    expect(lookup.status).not.toBe(413);
  }

  it.each([
    ["the public key lookup, anonymously", PUBLIC_METHOD, {}],
    ["a private method, anonymously", PRIVATE_METHOD, {}],
    ["a private method, signed in", PRIVATE_METHOD, { bearer: true }],
  ])(
    "a 50 MB body to %s answers 413 resource_exhausted, and the server stays healthy",
    async (_n, path, o) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if ("bearer" in o) headers.authorization = `Bearer ${token}`;
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers,
        body: jsonBodyOf(50 * 1024 * 1024),
      });
      expect(response.status).toBe(413);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe("resource_exhausted");
      expect(body.message).toContain(`the limit is ${LIMIT} bytes`);
      await expectHealthy();
    },
  );

  it("a body without a declared length is cut off at the limit with resource_exhausted", async () => {
    const chunk = new TextEncoder().encode("A".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"text":"'));
        sent += 1;
        if (sent > 64) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${server.url}${PUBLIC_METHOD}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const body = (await response.json()) as { code: string };
    expect(body.code).toBe("resource_exhausted");
    await expectHealthy();
  });

  it.each(["gzip", "br"])("a %s body that decompresses past the limit is refused", async (encoding) => {
    const { brotliCompressSync } = await import("node:zlib");
    const plain = jsonBodyOf(20 * 1024 * 1024);
    const compressed = encoding === "gzip" ? gzipSync(plain) : brotliCompressSync(plain);
    expect(compressed.length).toBeLessThan(LIMIT);
    const response = await fetch(`${server.url}${PUBLIC_METHOD}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": encoding },
      body: compressed,
    });
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe("resource_exhausted");
    expect(body.message).toContain("after decompression");
    await expectHealthy();
  });

  it("a compressed body within the limit is accepted", async () => {
    const response = await fetch(`${server.url}${PUBLIC_METHOD}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(JSON.stringify({ text: "ABCDEFG" })),
    });
    expect(response.status).not.toBe(413);
    const body = (await response.json()) as { code?: string };
    expect(body.code).not.toBe("resource_exhausted");
  });

  it("the sign-in endpoint refuses an oversized body with 413 too", async () => {
    const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: "a@b.test", password: "x".repeat(LIMIT * 2) }),
    });
    expect(response.status).toBe(413);
    await expectHealthy();
  });
});
