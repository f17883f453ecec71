// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.

import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "../src/azure/activity-log";
import { type Harness, startHarness } from "./sandbox-harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** A request with no token unless one is given, over the sandbox's TLS endpoint. */
function raw(
  method: string,
  path: string,
  options: { form?: Record<string, string>; token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      `${h.cloud.azure.armEndpoint}${path}`,
      {
        method,
        agent: h.agent,
        headers: {
          ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const ARM = "https://management.azure.com";
const ALLOWED_LOCATIONS = "e56962a6-4747-49cd-b67b-bf8b01975c4c";

describe("cloud metadata (https://learn.microsoft.com/en-us/azure-stack/user/azure-stack-rest-api-use)", () => {
  it("answers GET /metadata/endpoints without a token, naming the AD FS authority and the ARM audience", async () => {
    const arm = h.cloud.azure.armEndpoint;
    const res = await raw("GET", "/metadata/endpoints?api-version=2015-01-01");
    expect(res).toMatchObject({
      status: 200,
      body: { authentication: { loginEndpoint: `${arm}/adfs/`, audiences: [`${ARM}/`] } },
    });
    expect((await raw("GET", "/metadata/endpoints")).body).toMatchObject({
      error: { code: "MissingApiVersionParameter" },
    });
    expect((await raw("GET", "/metadata/endpoints?api-version=2099-01-01")).body).toMatchObject({
      error: { code: "InvalidApiVersionParameter" },
    });
  });
});

describe("AD FS-style authority (https://learn.microsoft.com/en-us/windows-server/identity/ad-fs/overview/ad-fs-openid-connect-oauth-flows-scenarios#client-credentials-grant-flow)", () => {
  const form = (extra: Record<string, string>) => ({
    grant_type: "client_credentials",
    client_id: h.cloud.azure.clientId,
    client_secret: h.cloud.azure.clientSecret,
    ...extra,
  });

  it("publishes its discovery document at <authority>/.well-known/openid-configuration", async () => {
    const arm = h.cloud.azure.armEndpoint;
    const res = await raw("GET", "/adfs/.well-known/openid-configuration");
    expect(res).toMatchObject({
      status: 200,
      body: { issuer: `${arm}/adfs`, token_endpoint: `${arm}/adfs/oauth2/token/` },
    });
    expect(res.body.grant_types_supported).toContain("client_credentials");
  });

  it("issues a token for Resource Manager that ARM accepts, and refuses another audience and a wrong secret", async () => {
    const granted = await raw("POST", "/adfs/oauth2/token/", { form: form({ scope: `${ARM}//.default` }) });
    expect(granted.status).toBe(200);
    const subscriptions = await raw("GET", "/subscriptions?api-version=2022-12-01", {
      token: String(granted.body.access_token),
    });
    expect(subscriptions.status).toBe(200);

    const otherAudience = await raw("POST", "/adfs/oauth2/token/", {
      form: form({ scope: "https://graph.windows.net/.default" }),
    });
    expect(otherAudience).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
    const wrongSecret = await raw("POST", "/adfs/oauth2/token/", {
      form: form({ scope: `${ARM}/.default`, client_secret: "not-the-secret" }),
    });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });
});

describe("resource providers (https://learn.microsoft.com/en-us/rest/api/resources/providers)", () => {
  it("registers and reads a provider at a subscription and a management group; an unknown namespace is invalid", async () => {
    const sub = (await h.arm("GET", "/subscriptions?api-version=2022-12-01")).body.value as {
      subscriptionId: string;
    }[];
    const base = `/subscriptions/${sub[0]!.subscriptionId}/providers`;
    const registered = await h.arm("POST", `${base}/Microsoft.Management/register?api-version=2021-04-01`);
    expect(registered).toMatchObject({
      status: 200,
      body: { namespace: "Microsoft.Management", registrationState: "Registered" },
    });
    expect((await h.arm("GET", `${base}/microsoft.management?api-version=2021-04-01`)).body).toMatchObject({
      id: `${base}/Microsoft.Management`,
      registrationState: "Registered",
    });
    const root = h.cloud.azure.rootManagementGroupId;
    const atGroup = await h.arm(
      "POST",
      `/providers/Microsoft.Management/managementGroups/${root}/providers/Microsoft.Authorization/register?api-version=2021-04-01`,
    );
    expect(atGroup).toMatchObject({ status: 200, body: { namespace: "Microsoft.Authorization" } });
    expect(
      (await h.arm("POST", `${base}/Contoso.Nothing/register?api-version=2021-04-01`)).body,
    ).toMatchObject({
      error: { code: "InvalidResourceNamespace" },
    });
  });

  it("answers a missing management group with ManagementGroupNotFound (https://learn.microsoft.com/en-us/azure/governance/management-groups/overview)", async () => {
    const res = await h.arm(
      "GET",
      "/providers/Microsoft.Management/managementGroups/no-such-group?api-version=2021-04-01",
    );
    expect(res).toMatchObject({ status: 404, body: { error: { code: "ManagementGroupNotFound" } } });
  });
});

describe("built-in policy definitions (https://learn.microsoft.com/en-us/azure/governance/policy/samples/built-in-policies)", () => {
  it("reads a built-in by its real id, refuses to delete it, and lists built-ins by policyType", async () => {
    const path = `/providers/Microsoft.Authorization/policyDefinitions/${ALLOWED_LOCATIONS}?api-version=2021-06-01`;
    expect((await h.arm("GET", path)).body).toMatchObject({
      id: `/providers/Microsoft.Authorization/policyDefinitions/${ALLOWED_LOCATIONS}`,
      properties: { displayName: "Allowed locations", policyType: "BuiltIn", mode: "Indexed" },
    });
    expect((await h.arm("DELETE", path)).status).toBe(403);
    expect((await h.arm("GET", path)).status).toBe(200);
    const root = h.cloud.azure.rootManagementGroupId;
    const custom = await h.arm(
      "GET",
      `/providers/Microsoft.Management/managementGroups/${root}/providers/Microsoft.Authorization/policyDefinitions?api-version=2021-06-01&$filter=${encodeURIComponent("policyType eq 'Custom'")}`,
    );
    expect(
      (custom.body.value as { properties: { policyType: string } }[]).every(
        (d) => d.properties.policyType === "Custom",
      ),
    ).toBe(true);
    const builtIns = await h.arm(
      "GET",
      "/providers/Microsoft.Authorization/policyDefinitions?api-version=2021-06-01",
    );
    expect((builtIns.body.value as { name: string }[]).map((d) => d.name)).toContain(ALLOWED_LOCATIONS);
  });
});

describe("Activity Log filter (https://learn.microsoft.com/en-us/rest/api/monitor/activity-logs/list)", () => {
  it("takes times without quotes and without an offset as UTC, as az sends them", async () => {
    const sub = (await h.arm("GET", "/subscriptions?api-version=2022-12-01")).body.value as {
      subscriptionId: string;
    }[];
    const id = sub[0]!.subscriptionId;
    // A write the Activity Log records.
    const definition = await h.arm(
      "PUT",
      `/subscriptions/${id}/providers/Microsoft.Authorization/policyDefinitions/pal-activity?api-version=2021-06-01`,
      { properties: { policyRule: { if: { field: "type", equals: "x" }, then: { effect: "audit" } } } },
    );
    expect(definition.status).toBe(201);
    // Listed once submitted, up to the submission lag after it happened, as in Azure.
    await h.post("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });
    const naive = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().replace("Z", "");
    const list = (filter: string) =>
      h.arm(
        "GET",
        `/subscriptions/${id}/providers/Microsoft.Insights/eventtypes/management/values?api-version=2015-04-01&$filter=${encodeURIComponent(filter)}`,
      );
    const since = await list(`eventTimestamp ge ${naive(-3_600_000)} and eventTimestamp le ${naive(60_000)}`);
    expect(since.status).toBe(200);
    expect((since.body.value as { resourceId: string }[]).map((e) => e.resourceId)).toContain(
      `/subscriptions/${id}/providers/Microsoft.Authorization/policyDefinitions/pal-activity`,
    );
    const later = await list(`eventTimestamp ge ${naive(3_600_000)}`);
    expect(later.body.value).toEqual([]);
  });
});
