import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "../src/azure/activity-log";
import { type Harness, startHarness } from "./sandbox-harness";

/**
 * The stock Azure CLI (Debian's `azure-cli`, unpatched) drives the sandbox as it drives Azure Stack
 * Hub deployed with AD FS: it registers the cloud from the sandbox's endpoint document, signs in a
 * service principal with a client secret, then manages policy and resources. Every assertion is
 * what Azure documents for the call.
 */
const AZ = "/usr/bin/az";
const installed = existsSync(AZ);
if (!installed && process.env.CI) {
  throw new Error(`The Azure CLI is missing at ${AZ}: CI installs Debian's azure-cli (.ci/run).`);
}

interface AzResult {
  code: number;
  stdout: string;
  stderr: string;
}

let h: Harness;
let configDir: string;
let subscriptionId: string;
let resourceGroup: string;
let rootGroup: string;
const env: Record<string, string> = {};

/** One `az` call; the CLI is slow to start, so the test makes few and in sequence. */
function az(...args: string[]): Promise<AzResult> {
  return new Promise((resolve) => {
    // --debug (which logs the answers' headers) and --only-show-errors exclude each other.
    const quiet = args.includes("--debug") ? [] : ["--only-show-errors"];
    execFile(AZ, [...args, ...quiet], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function azJson<T>(...args: string[]): Promise<T> {
  const out = await az(...args, "--output", "json");
  expect(out.stderr, `az ${args.join(" ")}`).toBe("");
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as T;
}

const denyOutsideRule = JSON.stringify({
  if: {
    allOf: [
      { field: "type", equals: "Microsoft.Storage/storageAccounts" },
      { field: "location", notIn: "[parameters('allowedLocations')]" },
    ],
  },
  // biome-ignore lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
  then: { effect: "deny" },
});
const ALLOWED_LOCATIONS_BUILT_IN = "e56962a6-4747-49cd-b67b-bf8b01975c4c";

const storageAccount = (name: string, location: string) => [
  "resource",
  "create",
  "--subscription",
  subscriptionId,
  "--resource-group",
  resourceGroup,
  "--name",
  name,
  "--resource-type",
  "Microsoft.Storage/storageAccounts",
  "--api-version",
  "2023-01-01",
  "--location",
  location,
  "--properties",
  JSON.stringify({ supportsHttpsTrafficOnly: true }),
];

describe.skipIf(!installed)(
  installed
    ? "the Azure CLI against the sandbox"
    : `the Azure CLI against the sandbox (skipped: ${AZ} is not installed)`,
  () => {
    beforeAll(async () => {
      h = await startHarness();
      configDir = mkdtempSync(join(tmpdir(), "palisade-az-"));
      const ca = join(configDir, "sandbox-ca.pem");
      writeFileSync(ca, h.cloud.azure.caCertPem!);
      Object.assign(env, {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: configDir,
        AZURE_CONFIG_DIR: configDir,
        // The requests library trusts this CA file for the sandbox's TLS endpoint.
        REQUESTS_CA_BUNDLE: ca,
        AZURE_CORE_COLLECT_TELEMETRY: "false",
        AZURE_CORE_NO_COLOR: "true",
        NO_PROXY: "127.0.0.1,localhost",
      });
      rootGroup = h.cloud.azure.rootManagementGroupId;
    });

    afterAll(async () => {
      await h?.stop();
      if (configDir) rmSync(configDir, { recursive: true, force: true });
    });

    it("registers the cloud from GET /metadata/endpoints and signs in a service principal against its AD FS authority (https://learn.microsoft.com/en-us/azure-stack/user/azure-stack-version-profiles-azurecli2)", async () => {
      const arm = h.cloud.azure.armEndpoint;
      const register = await az(
        "cloud",
        "register",
        "--name",
        "PalisadeSandbox",
        "--endpoint-resource-manager",
        arm,
        "--suffix-storage-endpoint",
        "sandbox.local",
        "--suffix-keyvault-dns",
        ".vault.sandbox.local",
      );
      expect(register).toMatchObject({ code: 0, stderr: "" });
      const cloud = await azJson<{ endpoints: Record<string, string> }>(
        "cloud",
        "show",
        "--name",
        "PalisadeSandbox",
      );
      // The endpoints az could only have read from the sandbox's endpoint document.
      expect(cloud.endpoints.activeDirectory).toBe(`${arm}/adfs/`);
      expect(cloud.endpoints.activeDirectoryResourceId).toBe("https://management.azure.com/");
      expect((await az("cloud", "set", "--name", "PalisadeSandbox")).code).toBe(0);

      const accounts = await azJson<
        { id: string; isDefault: boolean; tenantId: string; user: { type: string; name: string } }[]
      >(
        "login",
        "--service-principal",
        "--username",
        h.cloud.azure.clientId,
        "--password",
        h.cloud.azure.clientSecret,
        "--tenant",
        h.cloud.azure.tenantId,
      );
      const subscriptions = await h.arm("GET", "/subscriptions?api-version=2022-12-01");
      expect(accounts.map((a) => a.id).sort()).toEqual(
        (subscriptions.body.value as { subscriptionId: string }[]).map((s) => s.subscriptionId).sort(),
      );
      subscriptionId = accounts.find((a) => a.isDefault)!.id;
      const groups = await h.arm(
        "GET",
        `/subscriptions/${subscriptionId}/resourcegroups?api-version=2022-09-01`,
      );
      resourceGroup = (groups.body.value as { name: string }[])[0]!.name;
      expect(accounts[0]).toMatchObject({
        tenantId: h.cloud.azure.tenantId,
        user: { type: "servicePrincipal", name: h.cloud.azure.clientId },
      });
    });

    it("lists management groups after registering Microsoft.Management (https://learn.microsoft.com/en-us/cli/azure/account/management-group#az-account-management-group-list)", async () => {
      const groups = await azJson<{ name: string; type: string }[]>("account", "management-group", "list");
      expect(groups.map((g) => g.name)).toContain(rootGroup);
      expect(new Set(groups.map((g) => g.type))).toEqual(new Set(["Microsoft.Management/managementGroups"]));
    });

    it("creates a definition at a management group and lists it with the built-ins at a subscription below (https://learn.microsoft.com/en-us/rest/api/policy/policy-definitions/list)", async () => {
      const definition = await azJson<{ id: string; policyType: string }>(
        "policy",
        "definition",
        "create",
        "--name",
        "pal-storage-locations",
        "--management-group",
        rootGroup,
        "--mode",
        "Indexed",
        "--rules",
        denyOutsideRule,
        "--params",
        JSON.stringify({ allowedLocations: { type: "Array" } }),
      );
      expect(definition).toMatchObject({
        id: `/providers/Microsoft.Management/managementGroups/${rootGroup}/providers/Microsoft.Authorization/policyDefinitions/pal-storage-locations`,
        policyType: "Custom",
      });
      const listed = await azJson<{ name: string; policyType: string; displayName?: string }[]>(
        "policy",
        "definition",
        "list",
        "--subscription",
        subscriptionId,
      );
      expect(listed.find((d) => d.name === "pal-storage-locations")?.policyType).toBe("Custom");
      expect(listed.find((d) => d.name === ALLOWED_LOCATIONS_BUILT_IN)).toMatchObject({
        policyType: "BuiltIn",
        displayName: "Allowed locations",
      });
    });

    it("assigns with enforcement Default and DoNotEnforce and lists both from the subscription (https://learn.microsoft.com/en-us/azure/governance/policy/concepts/assignment-structure#enforcement-mode)", async () => {
      const root = `/providers/Microsoft.Management/managementGroups/${rootGroup}`;
      const enforced = await azJson<{ enforcementMode: string; scope: string }>(
        "policy",
        "assignment",
        "create",
        "--name",
        "pal-storage-locations",
        "--scope",
        root,
        "--policy",
        `${root}/providers/Microsoft.Authorization/policyDefinitions/pal-storage-locations`,
        "--params",
        JSON.stringify({ allowedLocations: { value: ["westeurope"] } }),
      );
      expect(enforced).toMatchObject({ enforcementMode: "Default", scope: root });
      // The built-in "Allowed locations", by its real name, not enforced: it denies nothing.
      const notEnforced = await azJson<{ enforcementMode: string; policyDefinitionId: string }>(
        "policy",
        "assignment",
        "create",
        "--name",
        "pal-locations-what-if",
        "--scope",
        `/subscriptions/${subscriptionId}`,
        "--policy",
        ALLOWED_LOCATIONS_BUILT_IN,
        "--params",
        JSON.stringify({ listOfAllowedLocations: { value: ["northeurope"] } }),
        "--enforcement-mode",
        "DoNotEnforce",
      );
      expect(notEnforced).toMatchObject({
        enforcementMode: "DoNotEnforce",
        policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${ALLOWED_LOCATIONS_BUILT_IN}`,
      });
      const listed = await azJson<{ name: string; enforcementMode: string }[]>(
        "policy",
        "assignment",
        "list",
        "--subscription",
        subscriptionId,
        "--disable-scope-strict-match",
      );
      expect(Object.fromEntries(listed.map((a) => [a.name, a.enforcementMode]))).toMatchObject({
        "pal-storage-locations": "Default",
        "pal-locations-what-if": "DoNotEnforce",
      });
      // Azure applies a new assignment within minutes, not at once
      // (https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers).
      expect((await h.post("/sandbox/control/clock", { advanceSeconds: 30 * 60 })).status).toBe(200);
    });

    it("is refused a write the Default assignment denies with RequestDisallowedByPolicy, and allowed one only the DoNotEnforce assignment would deny (https://learn.microsoft.com/en-us/azure/governance/policy/concepts/effect-deny)", async () => {
      const denied = await az(...storageAccount("stpaldenied01", "eastus"));
      expect(denied.code).not.toBe(0);
      expect(denied.stderr).toContain("(RequestDisallowedByPolicy)");
      expect(denied.stderr).toContain(
        `/providers/Microsoft.Management/managementGroups/${rootGroup}/providers/Microsoft.Authorization/policyAssignments/pal-storage-locations`,
      );
      const allowed = await azJson<{
        name: string;
        location: string;
        properties: { provisioningState: string };
      }>(...storageAccount("stpalallowed01", "westeurope"));
      expect(allowed).toMatchObject({
        name: "stpalallowed01",
        location: "westeurope",
        properties: { provisioningState: "Succeeded" },
      });
    });

    it("exempts a resource group with a Waiver that expires, lists it, and the waived write is allowed (https://learn.microsoft.com/en-us/azure/governance/policy/concepts/exemption-structure)", async () => {
      const expiresOn = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
      const scope = `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}`;
      const exemption = await azJson<{
        exemptionCategory: string;
        expiresOn: string;
        policyAssignmentId: string;
      }>(
        "policy",
        "exemption",
        "create",
        "--name",
        "pal-waiver",
        "--scope",
        scope,
        "--policy-assignment",
        `/providers/Microsoft.Management/managementGroups/${rootGroup}/providers/Microsoft.Authorization/policyAssignments/pal-storage-locations`,
        "--exemption-category",
        "Waiver",
        "--expires-on",
        expiresOn,
      );
      expect(exemption.exemptionCategory).toBe("Waiver");
      expect(Date.parse(exemption.expiresOn)).toBe(Date.parse(expiresOn));
      const listed = await azJson<{ name: string; expiresOn: string }[]>(
        "policy",
        "exemption",
        "list",
        "--scope",
        scope,
      );
      expect(listed.map((e) => e.name)).toEqual(["pal-waiver"]);
      // An exemption, like an assignment, is honoured once Azure has applied it.
      await h.propagate();
      const waived = await azJson<{ name: string }>(...storageAccount("stpalwaived01", "eastus"));
      expect(waived.name).toBe("stpalwaived01");
    });

    it("reads the deny and the writes from the Activity Log with the filter az sends (https://learn.microsoft.com/en-us/azure/azure-monitor/essentials/activity-log-schema#policy-category)", async () => {
      // Events are listed once submitted, up to the submission lag after they happened.
      await h.post("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });
      const hour = 3_600_000;
      // The window covers the sandbox clock, advanced above; az sends both times unquoted.
      const iso = (t: number) => new Date(t).toISOString().replace("Z", "");
      const events = await azJson<
        {
          operationName: { value: string };
          category: { value: string };
          status: { value: string };
          resourceId: string;
        }[]
      >(
        "monitor",
        "activity-log",
        "list",
        "--subscription",
        subscriptionId,
        "--resource-group",
        resourceGroup,
        "--start-time",
        iso(Date.now() - hour),
        "--end-time",
        iso(Date.now() + 2 * hour),
      );
      const on = (name: string) => events.filter((e) => e.resourceId.toLowerCase().endsWith(`/${name}`));
      expect(on("stpaldenied01")).toContainEqual(
        expect.objectContaining({
          operationName: expect.objectContaining({ value: "Microsoft.Authorization/policies/deny/action" }),
          category: expect.objectContaining({ value: "Policy" }),
        }),
      );
      expect(on("stpaldenied01")).toContainEqual(
        expect.objectContaining({
          operationName: expect.objectContaining({ value: "Microsoft.Storage/storageAccounts/write" }),
          status: expect.objectContaining({ value: "Failed" }),
        }),
      );
      expect(on("stpalallowed01")).toContainEqual(
        expect.objectContaining({
          operationName: expect.objectContaining({ value: "Microsoft.Storage/storageAccounts/write" }),
          status: expect.objectContaining({ value: "Succeeded" }),
        }),
      );
    });

    it("answers with the sandbox clock's time in the Date header, as ARM sends the time it processed the request (https://github.com/Azure/azure-resource-manager-rpc/blob/master/v1.0/common-api-details.md#response-headers)", async () => {
      await h.post("/sandbox/control/clock", { advanceSeconds: 3_600 });
      const out = await az(
        "rest",
        "--method",
        "get",
        "--url",
        `${h.cloud.azure.armEndpoint}/subscriptions/${subscriptionId}?api-version=2022-12-01`,
        "--debug",
      );
      expect(out.code).toBe(0);
      // az logs each answer's headers under --debug: `'date': 'Sun, 29 Nov 2026 08:05:06 GMT'`.
      const logged = /'date': '([^']+)'/i.exec(out.stderr)?.[1];
      expect(logged, out.stderr).toBeDefined();
      const date = Date.parse(logged!);
      const now = Date.parse((await h.post("/sandbox/control/clock", {})).body.now as string);
      // The header is in whole seconds, and az answers a few seconds before this test reads the clock.
      expect(Math.abs(now - date)).toBeLessThan(30_000);
      expect(date - Date.now()).toBeGreaterThan(3_500_000);
    });
  },
);
