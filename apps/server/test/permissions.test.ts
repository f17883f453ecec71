import { create, type DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Permission, Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { methodAccess } from "@palisade/api/method-access";
import { rolePermissions } from "@palisade/api/roles";
import { allServices } from "@palisade/api/services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_NAMES } from "../src/auth/roles";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

type Caller = "anonymous" | (typeof ROLE_NAMES)[number];
const callers: Caller[] = ["anonymous", ...ROLE_NAMES];

/** Methods that end the caller's own sessions: called last, so the caller's credentials hold till then. */
const endsOwnSessions = new Set(["AccountService.RevokeAllSessions"]);
const nameOf = (method: DescMethod) => `${method.parent.name}.${method.name}`;
const methods: DescMethod[] = allServices
  .flatMap((service) => service.methods)
  .sort((a, b) => Number(endsOwnSessions.has(nameOf(a))) - Number(endsOwnSessions.has(nameOf(b))));

/** Methods for instance administrators alone, whatever the tenant role (no test member is one). */
const instanceAdminOnly = new Set([
  "TenantService.CreateTenant",
  "TeamService.SetInstanceAdmin",
  "SsoService.ListDomainRequests",
  "SsoService.SetDomainVerified",
]);

/** What the server must answer a caller before the method's own logic runs. */
function expectedVerdict(
  method: DescMethod,
  caller: Caller,
): "allowed" | "unauthenticated" | "permission_denied" {
  const access = methodAccess(method);
  if (access.public) return "allowed";
  if (caller === "anonymous") return "unauthenticated";
  const granted = rolePermissions[Role[caller]];
  if (instanceAdminOnly.has(nameOf(method))) return "permission_denied";
  return access.permissions.every((p) => granted.includes(p)) ? "allowed" : "permission_denied";
}

async function verdictOf(server: TestServer, method: DescMethod, credentials: Credentials) {
  const client = server.client(method.parent, credentials) as unknown as Record<
    string,
    (request: unknown) => Promise<unknown>
  >;
  const call = client[method.localName];
  if (!call) throw new Error(`no client method ${method.localName}`);
  try {
    await call(create(method.input));
    return { verdict: "allowed" as const };
  } catch (error) {
    const connectError = ConnectError.from(error);
    if (connectError.code === Code.Unauthenticated) return { verdict: "unauthenticated" as const };
    if (connectError.code === Code.PermissionDenied) {
      return { verdict: "permission_denied" as const, message: connectError.rawMessage };
    }
    // Any other answer (invalid argument, not found, unimplemented...) comes from past the
    // permission check.
    return { verdict: "allowed" as const };
  }
}

// Every method of the contract, called by every built-in role and without credentials: the
// server must enforce exactly the access the contract declares.
describe("role x method permission table", () => {
  let server: TestServer;
  const credentials = new Map<Caller, Credentials>();

  beforeAll(async () => {
    server = await startTestServer("pglite");
    credentials.set("anonymous", { kind: "none" });
    for (const role of ROLE_NAMES) {
      credentials.set(role, (await server.addMember({ role })).credentials);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("covers every method of the contract", () => {
    expect(methods.length).toBeGreaterThan(80);
  });

  it("lets whoever reads policies preview their impact, and nobody without", () => {
    const preview = methods.filter((m) =>
      /^DeploymentManagerService\.(Start|Get)ImpactPreview$/.test(nameOf(m)),
    );
    expect(preview.map(nameOf).sort()).toEqual([
      "DeploymentManagerService.GetImpactPreview",
      "DeploymentManagerService.StartImpactPreview",
    ]);
    for (const method of preview) {
      expect(methodAccess(method).permissions).toEqual([Permission.POLICIES_READ]);
      expect(expectedVerdict(method, "VIEWER")).toBe("allowed");
      expect(expectedVerdict(method, "INTEGRATOR")).toBe("allowed");
      expect(expectedVerdict(method, "VISITOR")).toBe("permission_denied");
      expect(expectedVerdict(method, "anonymous")).toBe("unauthenticated");
    }
  });

  it.each([
    ["RecommendationService.ListRecommendations", [Permission.RECOMMENDATIONS_READ]],
    ["RecommendationService.GetRecommendation", [Permission.RECOMMENDATIONS_READ]],
    ["RecommendationService.ArchiveRecommendation", [Permission.RECOMMENDATIONS_WRITE]],
    ["RecommendationService.UnarchiveRecommendation", [Permission.RECOMMENDATIONS_WRITE]],
    ["RecommendationService.AddRecommendation", [Permission.RECOMMENDATIONS_WRITE]],
    ["RecommendationService.RefreshRecommendations", [Permission.RECOMMENDATIONS_WRITE]],
    ["RecommendationService.InstallRecommendation", [Permission.RECOMMENDATIONS_INSTALL]],
    ["RecommendationService.MarkRecommendationInstalled", [Permission.RECOMMENDATIONS_INSTALL]],
  ])("%s needs %j", (name, permissions) => {
    const method = methods.find((m) => nameOf(m) === name);
    expect(method && methodAccess(method)).toMatchObject({ public: false, permissions });
  });

  describe.each(callers)("%s", (caller) => {
    it.each(methods.map((m) => [nameOf(m), m] as const))("%s", async (_name, method) => {
      const result = await verdictOf(server, method, credentials.get(caller) ?? { kind: "none" });
      const expected = expectedVerdict(method, caller);
      expect(result.verdict).toBe(expected);
      if (expected === "permission_denied") {
        // The refusal names what is missing, so a user knows what to ask for.
        const missing = methodAccess(method).permissions.filter(
          (p) => !rolePermissions[Role[caller as Exclude<Caller, "anonymous">]].includes(p),
        );
        for (const permission of missing) expect(result.message).toContain(Permission[permission]);
      }
    });
  });
});
