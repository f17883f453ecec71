import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { Code, createClient } from "@connectrpc/connect";
import { compressionGzip, createConnectTransport } from "@connectrpc/connect-node";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { errorOf } from "./support/call-error";
import { waitFor } from "./support/poll";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { startTestServer, type TestServer } from "./support/test-server";

/** A ResolvePolicyKey request whose first field claims more bytes than follow. */
const TRUNCATED = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);
const PATH = "/palisade.policy.v1.PolicyService/ResolvePolicyKey";

/** One message in the gRPC and gRPC-Web framing: a flag byte, a 4-byte length, the bytes. */
function envelope(message: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.byteLength, 1);
  return Buffer.concat([head, message]);
}

/** The trailer frame (flag 0x80) of a gRPC-Web answer, as header lines. */
function grpcWebTrailer(body: Buffer): Record<string, string> {
  for (let offset = 0; offset + 5 <= body.byteLength; ) {
    const length = body.readUInt32BE(offset + 1);
    if ((body[offset] ?? 0) & 0x80) {
      const text = body.subarray(offset + 5, offset + 5 + length).toString("utf8");
      return Object.fromEntries(
        text
          .split("\r\n")
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]),
      );
    }
    offset += 5 + length;
  }
  throw new Error("no trailer frame in the answer");
}

describe("requests that do not decode", () => {
  let server: TestServer;
  let smtp: SmtpTestServer;
  const log: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer(
      "pglite",
      { SMTP_URL: smtp.url, LOG_LEVEL: "info", TRUST_PROXY: "true" },
      new Writable({
        write(chunk, _encoding, done) {
          log.push(String(chunk));
          done();
        },
      }),
    );
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it("a malformed binary body answers invalid_argument over Connect, plain or compressed, and is logged", async () => {
    for (const [body, headers] of [
      [TRUNCATED, {}],
      [gzipSync(TRUNCATED), { "content-encoding": "gzip" }],
    ] as const) {
      const response = await fetch(`${server.url}${PATH}`, {
        method: "POST",
        headers: { "content-type": "application/proto", ...headers },
        body,
      });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { code: string; message: string };
      expect(answer.code).toBe("invalid_argument");
      expect(answer.message).toBe(
        "The request body is not a valid palisade.policy.v1.ResolvePolicyKeyRequest: premature EOF.",
      );
    }
    const entries = log
      .join("")
      .split("\n")
      .filter((line) => line.includes("request body refused"))
      .map((line) => JSON.parse(line) as { level: number; procedure: string; err: string });
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      level: 30,
      procedure: PATH,
      err: expect.stringContaining("premature EOF"),
    });
  });

  it("a malformed binary message answers grpc-status 3 over gRPC-Web, compressed or not", async () => {
    for (const [body, headers] of [
      [envelope(TRUNCATED), {}],
      [
        Buffer.concat([Buffer.from([1]), envelope(gzipSync(TRUNCATED)).subarray(1)]),
        { "grpc-encoding": "gzip" },
      ],
    ] as const) {
      const response = await fetch(`${server.url}${PATH}`, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", ...headers },
        body: new Uint8Array(body),
      });
      expect(response.status).toBe(200);
      const trailer = grpcWebTrailer(Buffer.from(await response.arrayBuffer()));
      expect(trailer["grpc-status"]).toBe(String(Code.InvalidArgument));
      expect(decodeURIComponent(trailer["grpc-message"] ?? "")).toContain("premature EOF");
    }
  });

  it("a malformed binary message answers grpc-status 3 over gRPC", async () => {
    const url = new URL(`${server.url}${PATH}`);
    const answer = await new Promise<{ status: string | undefined }>((resolve, reject) => {
      const call = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "content-type": "application/grpc+proto", te: "trailers" },
        },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.trailers["grpc-status"] ?? response.headers["grpc-status"]?.toString(),
            }),
          );
        },
      );
      call.on("error", reject);
      call.end(envelope(TRUNCATED));
    });
    expect(answer.status).toBe(String(Code.InvalidArgument));
  });

  it("a well-formed binary request still works, compressed too", async () => {
    const client = createClient(
      PolicyService,
      createConnectTransport({
        baseUrl: server.url,
        httpVersion: "1.1",
        useBinaryFormat: true,
        sendCompression: compressionGzip,
        compressMinBytes: 0,
      }),
    );
    const key = generatePolicyKey((n) => randomBytes(n));
    const refused = await errorOf(client.resolvePolicyKey({ text: `Denied by ${key}` }));
    expect(refused.code).toBe(Code.NotFound);
  });

  it("SignInRequester refuses a code alone for an account with an authenticator app, and signs nothing in", async () => {
    const admin = await server.addMember({ role: "ADMINISTRATOR" });
    await server.client(TenantService, admin.credentials).updateSettings({
      settings: {
        maxWaiverDurationHours: 72,
        defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
        waiverRequesterDomains: ["requesters.example"],
      },
    });
    const key = generatePolicyKey((n) => randomBytes(n));
    await server.palisade.database.db.insert(bundles).values({
      tenantId: server.defaultTenantId,
      key,
      name: `Keep S3 private ${key}`,
      policySlug: "aws-s3-deny-public-access-change",
      provider: "AWS",
      mode: "PREVENT",
      status: "DEPLOYED",
      scopes: [{ id: "111122223333" }],
      waiverApprovalMode: "AUTO",
      createdBy: "seed",
    });
    const member = await server.addMember({ role: "EDITOR", email: "tom@requesters.example" });
    await server.palisade.database.db
      .update(user)
      .set({ twoFactorEnabled: true })
      .where(eq(user.id, member.userId));

    const team = server.client(TeamService);
    await team.sendRequesterCode({ email: member.email, policyKey: key });
    const mail = await waitFor("the code", async () =>
      smtp.received.find((m) => m.recipients.includes(member.email)),
    );
    const code = (mail.parsed.text ?? "").match(/^(\d{6})$/m)?.[1] ?? "";

    const response = await fetch(`${server.url}/palisade.team.v1.TeamService/SignInRequester`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: member.email, policyKey: key, code }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: "failed_precondition",
      message:
        "This account signs in with an authenticator app as well. Sign in on Palisade's sign-in page with the code and the app, then open this page again.",
    });
    expect(response.headers.getSetCookie().filter((c) => c.includes("session_token="))).toEqual([]);
  });
});
