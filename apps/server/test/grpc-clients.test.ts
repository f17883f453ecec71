import { execFile } from "node:child_process";
import http2 from "node:http2";
import { createRequire } from "node:module";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import {
  type ServerReflectionRequest,
  ServerReflectionRequestSchema,
  type ServerReflectionResponse,
  ServerReflectionResponseSchema,
} from "@palisade/api/gen/grpc/reflection/v1/reflection_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  type GetCurrentRequest,
  GetCurrentRequestSchema,
  type GetCurrentResponse,
  GetCurrentResponseSchema,
  TenantService,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestShapeEngines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

// Stock gRPC clients over HTTP/2 without TLS (prior knowledge), on the port that serves HTTP/1.1:
// `buf curl` reads the schema through server reflection, no .proto files at hand, and @grpc/grpc-js
// is a second, independent HTTP/2 and gRPC stack. An RPC's exit code from buf curl is its gRPC
// status code shifted left by three bits (buf curl --help).

const BUF = createRequire(import.meta.url).resolve("@bufbuild/buf/bin/buf");

/** gRPC status codes (https://grpc.io/docs/guides/status-codes/). */
const Status = { invalidArgument: 3, notFound: 5, permissionDenied: 7, unauthenticated: 16 } as const;

interface BufResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `buf curl` over gRPC with HTTP/2 prior knowledge, schema from reflection. */
function bufCurl(args: string[]): Promise<BufResult> {
  return new Promise((resolve) => {
    execFile(
      BUF,
      ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args],
      { encoding: "utf8", timeout: 30_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ exitCode, stdout, stderr });
      },
    );
  });
}

/** The error buf curl prints for a failed RPC: its status name and message. */
function rpcError(result: BufResult): { code: string; message: string } {
  return JSON.parse(result.stderr || result.stdout);
}

describe.each(requestShapeEngines)("gRPC clients over HTTP/2 on %s", (engine) => {
  let server: TestServer;
  let adminKey: string;
  let viewerKey: string;
  const rpc = (method: string) => `${server.url}/${method}`;
  const withKey = (key: string) => ["-H", `Authorization: Bearer ${key}`, "--reflect-header", "*"];

  beforeAll(async () => {
    server = await startTestServer(engine);
    adminKey = await server.createApiKey({ tenantId: server.defaultTenantId, role: "ADMINISTRATOR" });
    viewerKey = await server.createApiKey({ tenantId: server.defaultTenantId, role: "VIEWER" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("buf curl reads with an API key, the schema from reflection v1 and from v1alpha", async () => {
    for (const protocol of ["grpc-v1", "grpc-v1alpha"]) {
      const result = await bufCurl([
        ...withKey(adminKey),
        "--reflect-protocol",
        protocol,
        rpc("palisade.tenant.v1.TenantService/GetCurrent"),
      ]);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      const answer = JSON.parse(result.stdout);
      expect(answer.tenant.name).toBe("Default");
      expect(answer.role).toBe("ROLE_ADMINISTRATOR");
      expect(answer.permissions).toContain("PERMISSION_TENANT_SETTINGS_WRITE");
    }
  });

  it("buf curl writes with an API key, and the web's client reads the change back", async () => {
    const result = await bufCurl([
      ...withKey(adminKey),
      "-d",
      JSON.stringify({
        settings: { defaultWaiverApprovalMode: "WAIVER_APPROVAL_MODE_MANUAL", maxWaiverDurationHours: 48 },
      }),
      rpc("palisade.tenant.v1.TenantService/UpdateSettings"),
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).tenant.settings.maxWaiverDurationHours).toBe(48);
    const { tenant } = await server.client(TenantService, { kind: "bearer", token: adminKey }).getCurrent({});
    expect(tenant?.settings?.maxWaiverDurationHours).toBe(48);
  });

  it("buf curl lists the services through reflection", async () => {
    const result = await bufCurl([...withKey(viewerKey), "--list-services", server.url]);
    expect(result.exitCode).toBe(0);
    const services = result.stdout.trim().split("\n");
    expect(services).toEqual(
      expect.arrayContaining([
        "palisade.tenant.v1.TenantService",
        "palisade.waiver.v1.WaiverService",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
      ]),
    );
  });

  it("errors carry their gRPC status codes", async () => {
    // Reflection with the key; the call itself without one.
    const anonymous = await bufCurl([
      "--reflect-header",
      `Authorization: Bearer ${adminKey}`,
      rpc("palisade.tenant.v1.TenantService/GetCurrent"),
    ]);
    expect(anonymous.exitCode).toBe(Status.unauthenticated << 3);
    expect(rpcError(anonymous).code).toBe("unauthenticated");

    const wrongKey = await bufCurl([
      "-H",
      "Authorization: Bearer pal_not-a-key",
      "--reflect-header",
      `Authorization: Bearer ${adminKey}`,
      rpc("palisade.tenant.v1.TenantService/GetCurrent"),
    ]);
    expect(wrongKey.exitCode).toBe(Status.unauthenticated << 3);
    expect(rpcError(wrongKey).message).toBe("The API key is not valid or has expired.");

    const viewerWrites = await bufCurl([
      ...withKey(viewerKey),
      "-d",
      JSON.stringify({ settings: { defaultWaiverApprovalMode: "WAIVER_APPROVAL_MODE_AUTO" } }),
      rpc("palisade.tenant.v1.TenantService/UpdateSettings"),
    ]);
    expect(viewerWrites.exitCode).toBe(Status.permissionDenied << 3);
    expect(rpcError(viewerWrites)).toMatchObject({
      code: "permission_denied",
      message: "Your role does not grant TENANT_SETTINGS_WRITE, which TenantService.UpdateSettings requires.",
    });

    const badInput = await bufCurl([
      ...withKey(adminKey),
      "-d",
      JSON.stringify({
        settings: { defaultWaiverApprovalMode: "WAIVER_APPROVAL_MODE_AUTO", maxWaiverDurationHours: 100 },
      }),
      rpc("palisade.tenant.v1.TenantService/UpdateSettings"),
    ]);
    expect(badInput.exitCode).toBe(Status.invalidArgument << 3);
    expect(rpcError(badInput)).toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("settings.max_waiver_duration_hours"),
    });

    const missing = await bufCurl([
      ...withKey(adminKey),
      "-d",
      JSON.stringify({ id: crypto.randomUUID() }),
      rpc("palisade.deployment.v1.DeploymentManagerService/Get"),
    ]);
    expect(missing.exitCode).toBe(Status.notFound << 3);
    expect(rpcError(missing).code).toBe("not_found");
  });

  it("reflection is refused without credentials", async () => {
    const result = await bufCurl(["--list-services", server.url]);
    expect(result.exitCode).not.toBe(0);
    // buf curl words an unauthenticated reflection answer as a registry sign-in problem.
    expect(result.stderr).toContain("not authenticated");
    expect(result.stdout).not.toContain("palisade.");
  });

  describe("with @grpc/grpc-js", () => {
    let client: grpc.Client;
    beforeAll(() => {
      client = new grpc.Client(new URL(server.url).host, grpc.credentials.createInsecure());
    });
    afterAll(() => client?.close());

    const metadataWith = (key?: string) => {
      const metadata = new grpc.Metadata();
      if (key) metadata.set("authorization", `Bearer ${key}`);
      return metadata;
    };

    function getCurrent(key?: string) {
      return new Promise<{ error: grpc.ServiceError | null; tenantName?: string }>((resolve) => {
        client.makeUnaryRequest<GetCurrentRequest, GetCurrentResponse>(
          "/palisade.tenant.v1.TenantService/GetCurrent",
          (message) => Buffer.from(toBinary(GetCurrentRequestSchema, message)),
          (bytes) => fromBinary(GetCurrentResponseSchema, bytes),
          create(GetCurrentRequestSchema),
          metadataWith(key),
          (error, response) => resolve({ error, tenantName: response?.tenant?.name }),
        );
      });
    }

    /** One reflection exchange: a list of services, then the file declaring TenantService. */
    function reflect(key?: string) {
      return new Promise<{ error?: grpc.ServiceError; answers: ServerReflectionResponse[] }>((resolve) => {
        const answers: ServerReflectionResponse[] = [];
        const call = client.makeBidiStreamRequest<ServerReflectionRequest, ServerReflectionResponse>(
          "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
          (message) => Buffer.from(toBinary(ServerReflectionRequestSchema, message)),
          (bytes) => fromBinary(ServerReflectionResponseSchema, bytes),
          metadataWith(key),
        );
        call.on("data", (answer: ServerReflectionResponse) => answers.push(answer));
        call.on("error", (error: grpc.ServiceError) => resolve({ error, answers }));
        call.on("end", () => resolve({ answers }));
        for (const messageRequest of [
          { case: "listServices" as const, value: "" },
          { case: "fileContainingSymbol" as const, value: "palisade.tenant.v1.TenantService" },
        ]) {
          call.write(create(ServerReflectionRequestSchema, { messageRequest }));
        }
        call.end();
      });
    }

    it("calls a method with an API key and is refused without one", async () => {
      expect(await getCurrent(adminKey)).toEqual({ error: null, tenantName: "Default" });
      const { error } = await getCurrent();
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    });

    it("reads the schema through reflection with an API key, with every file it imports", async () => {
      const { error, answers } = await reflect(viewerKey);
      expect(error).toBeUndefined();
      const [list, files] = answers;
      expect(list?.messageResponse.case).toBe("listServicesResponse");
      if (files?.messageResponse.case !== "fileDescriptorResponse") throw new Error("no files answered");
      const names = files.messageResponse.value.fileDescriptorProto.map(
        (bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name,
      );
      expect(names[0]).toBe("palisade/tenant/v1/tenant.proto");
      expect(names).toEqual(
        expect.arrayContaining([
          "buf/validate/validate.proto",
          "google/protobuf/descriptor.proto",
          "palisade/auth/v1/auth.proto",
        ]),
      );
    });

    it("refuses reflection without credentials", async () => {
      const { error, answers } = await reflect();
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
      expect(answers).toEqual([]);
    });
  });

  it("the generated package calls over gRPC with an API key, as docs/api.md shows", async () => {
    const apiKey: Interceptor = (next) => (request) => {
      request.header.set("authorization", `Bearer ${adminKey}`);
      return next(request);
    };
    const tenants = createClient(
      TenantService,
      createGrpcTransport({ baseUrl: server.url, interceptors: [apiKey] }),
    );
    const { tenant: before } = await tenants.updateSettings({
      settings: { defaultWaiverApprovalMode: WaiverApprovalMode.AUTO, maxWaiverDurationHours: 24 },
    });
    expect(before?.settings?.maxWaiverDurationHours).toBe(24);
    const { tenant, role } = await tenants.getCurrent({});
    expect(tenant?.settings?.defaultWaiverApprovalMode).toBe(WaiverApprovalMode.AUTO);
    expect(role).toBe(Role.ADMINISTRATOR);
    const anonymous = createClient(TenantService, createGrpcTransport({ baseUrl: server.url }));
    await expect(anonymous.getCurrent({})).rejects.toMatchObject({ code: Code.Unauthenticated });
  });

  it("a body declared over the limit on HTTP/2 is refused, and the connection serves the next call", async () => {
    const session = http2.connect(server.url);
    const call = (headers: http2.OutgoingHttpHeaders) =>
      new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", "content-type": "application/grpc", ...headers });
        let status: number | undefined;
        let body = "";
        stream.on("response", (answer) => {
          status = Number(answer[":status"]);
        });
        stream.on("data", (chunk) => {
          body += chunk;
        });
        stream.on("end", () => {
          resolve({ status, body });
          stream.close();
        });
        stream.on("error", reject);
        // A GET ends at once; the large POST sends a first frame and waits for the answer.
        if (headers[":method"] === "GET") stream.end();
        else stream.write(Buffer.alloc(5));
      });
    try {
      const tooLarge = await call({
        ":path": "/palisade.tenant.v1.TenantService/GetCurrent",
        "content-length": String(50 * 1024 * 1024),
      });
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body).code).toBe("resource_exhausted");
      const health = await call({ ":method": "GET", ":path": "/healthz", "content-type": "text/plain" });
      expect(health.status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("HTTP/1.1 answers as before, security headers included", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });
});
