import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server";

// The same RPC answered over each protocol the server speaks.
describe("RPC protocols", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    const member = await server.addMember({ role: "EDITOR" });
    if (member.credentials.kind !== "bearer") throw new Error("expected a bearer token");
    token = member.credentials.token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ["Connect JSON", () => createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })],
    [
      "Connect binary",
      () => createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat: true }),
    ],
    ["gRPC-web", () => createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" })],
  ])("%s", async (_name, transport) => {
    const client = createClient(TenantService, transport());
    const current = await client.getCurrent({}, { headers: { authorization: `Bearer ${token}` } });
    expect(current.role).toBe(Role.EDITOR);
    expect(current.tenant?.name).toBe("Default");
  });
});
