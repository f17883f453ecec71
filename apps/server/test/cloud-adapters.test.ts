import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { CompileBundleInput } from "@palisade/policy-engine/compilers/compile-input";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "@palisade/sandbox-cloud/azure/activity-log";
import { type SandboxCloud, startSandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import { createAzureProvider } from "../src/cloud/azure/azure-provider";
import type { AwsCloudProvider, AzureCloudProvider } from "../src/cloud/cloud-provider";
import { sandboxAwsConnection, sandboxAzureConnection } from "../src/cloud/sandbox-endpoints";
import { fetchUntil } from "./support/trail-wait";

const SLUGS = ["deny-leave-organization", "storage-accounts-https-only"];
const catalogue = parseCatalogue(
  readCatalogueFiles().filter((file) => {
    const match = /definitions\/(aws|azure)\/([^/]+)\.yaml$/.exec(file.path);
    return !match || SLUGS.includes(match[2] ?? "");
  }),
);
const TRAIL_CHECKS = [
  "Assume the trail reader role",
  "Read the organisation trail",
  "Regions covered",
  "Newest record",
];
const definition = (slug: string) => catalogue.bySlug.get(slug) as Definition;

function bundle(input: Partial<CompileBundleInput> & Pick<CompileBundleInput, "definition" | "scopes">) {
  return {
    parameters: {},
    mode: "PREVENT" as const,
    key: "7KQ2M9X",
    name: "Adapter test",
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "http://localhost:8080",
    now: new Date(),
    definitions: catalogue.bySlug,
    ...input,
  };
}

let dataDir: string;
let cloud: SandboxCloud;
let aws: AwsCloudProvider;
let azure: AzureCloudProvider;
const fast = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 2000 };
/** Azure's propagation of a new assignment or exemption, kept short here (never zero). */
const PROPAGATION_SECONDS = 2;
const propagated = () => new Promise((resolve) => setTimeout(resolve, PROPAGATION_SECONDS * 1_000 + 100));

async function control(path: string, body: unknown) {
  const res = await fetch(`${cloud.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
  return res.json() as Promise<Record<string, unknown>>;
}

async function tryAction(body: Record<string, unknown>) {
  const res = await fetch(`${cloud.url}/sandbox/try`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.status;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "palisade-adapters-"));
  // The organisation trail delivers about a second after a call, as late as CloudTrail's, shorter.
  cloud = await startSandboxCloud({
    dataDir,
    port: 0,
    activity: { enabled: false },
    azurePolicyPropagationSeconds: PROPAGATION_SECONDS,
    trailDeliveryDelaySeconds: 1,
  });
  aws = createAwsProvider({ ...sandboxAwsConnection(cloud), retry: fast });
  azure = createAzureProvider({ ...sandboxAzureConnection(cloud), retry: fast });
});

afterAll(async () => {
  aws?.close();
  azure?.close();
  await cloud?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("AWS adapter against the sandbox", () => {
  it("passes every connection check with the sandbox's credentials once its trail has delivered", async () => {
    // A new trail has delivered nothing: the check says so until the first log file arrives (the
    // checks' own calls are recorded, and delivered about a second later).
    const first = await aws.verify();
    const failing = first.filter((c) => !c.ok).map((c) => c.name);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((name) => TRAIL_CHECKS.includes(name))).toBe(true);
    const checks = await fetchUntil(
      () => aws.verify(),
      (all) => all.every((c) => c.ok),
    );
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ["Assume role", true],
      ["Read the organisation", true],
      ["Connector account", true],
      ["Service control policies enabled", true],
      ["List service control policies", true],
      // Events come from the organisation trail, so LookupEvents is not checked.
      ["Assume the trail reader role", true],
      ["Read the organisation trail", true],
      ["Regions covered", true],
      ["Newest record", true],
    ]);
  });

  it("reports a wrong external id as such, and stops there", async () => {
    const wrong = createAwsProvider({ ...sandboxAwsConnection(cloud), externalId: "not-the-external-id" });
    const checks = await wrong.verify();
    wrong.close();
    // The trail is read through its own reader role, so its checks still run.
    const roleChecks = checks.filter((c) => !TRAIL_CHECKS.includes(c.name));
    expect(roleChecks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(false);
    expect(checks[0]?.message).toMatch(/external id not-the-external-id/);
  });

  it("reports an unreachable endpoint", async () => {
    const nowhere = createAwsProvider({ ...sandboxAwsConnection(cloud), endpoint: "http://127.0.0.1:9" });
    const checks = await nowhere.verify();
    nowhere.close();
    expect(checks[0]?.ok).toBe(false);
    expect(checks[0]?.message).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it("lists the organisation: root, nested OUs and every account under its parent", async () => {
    const entries = await aws.listHierarchy();
    const byName = new Map(entries.map((e) => [e.name, e]));
    const root = entries.find((e) => e.type === "AWS_ORGANIZATION_ROOT");
    expect(root?.parentExternalId).toBeUndefined();
    expect(
      entries
        .filter((e) => e.type === "AWS_OU")
        .map((e) => e.name)
        .sort(),
    ).toEqual(
      ["Infrastructure", "Sandbox", "Security", "Workloads", "Workloads-Dev", "Workloads-Prod"].sort(),
    );
    expect(entries.filter((e) => e.type === "AWS_ACCOUNT")).toHaveLength(10);
    expect(byName.get("Workloads-Prod")?.parentExternalId).toBe(byName.get("Workloads")?.externalId);
    expect(byName.get("payments-prod")?.parentExternalId).toBe(byName.get("Workloads-Prod")?.externalId);
    // Parents come before their children.
    const position = new Map(entries.map((e, i) => [e.externalId, i]));
    for (const e of entries) {
      if (e.parentExternalId)
        expect(position.get(e.parentExternalId)).toBeLessThan(position.get(e.externalId)!);
    }
  });

  it("puts, attaches, updates, detaches and deletes a compiled SCP, and the sandbox enforces it", async () => {
    const entries = await aws.listHierarchy();
    const sandboxOu = entries.find((e) => e.name === "Sandbox")!.externalId;
    const account = entries.find((e) => e.name === "sandbox-alice")!.externalId;
    const compiled = compileScp(
      bundle({ definition: definition("deny-leave-organization"), scopes: [{ id: sandboxOu }] }),
    );

    const ref = await aws.applyScp(compiled);
    expect(ref.id).toMatch(/^p-/);
    expect(await aws.listScpTargets(ref.id)).toEqual([sandboxOu]);
    const leave = {
      provider: "aws",
      account,
      principal: "user/alice",
      action: "organizations:LeaveOrganization",
      resource: "*",
    };
    expect(await tryAction(leave)).toBe(403);

    // Applying again by name is an update in place, and moving the targets re-attaches.
    const again = await aws.applyScp({ ...compiled, targets: [account] });
    expect(again.id).toBe(ref.id);
    expect(await aws.listScpTargets(ref.id)).toEqual([account]);

    await aws.detachScp(ref.id, account);
    await aws.detachScp(ref.id, account); // already detached: no error
    expect(await aws.listScpTargets(ref.id)).toEqual([]);
    expect(await tryAction(leave)).toBe(200);

    await aws.attachScp(ref.id, account);
    await aws.removeScp(ref.id);
    expect(await aws.findScpByName(compiled.name)).toBeUndefined();
    await aws.removeScp(ref.id); // already gone: no error
  });

  // LookupEvents answers the caller's account only: the management account's own calls.
  it("reads the management account's CloudTrail since a cursor across LookupEvents pages, each record once", async () => {
    // LookupEvents allows 2 calls a second per account and Region: throttled pages wait and are
    // asked for again, as with the product's default retry.
    const aws = createAwsProvider({
      ...sandboxAwsConnection(cloud),
      trail: undefined,
      retry: { maxAttempts: 6, baseDelayMs: 250, maxDelayMs: 2000 },
    });
    const first = await aws.readAuditEvents(undefined, { since: new Date(Date.now() - 60_000) });
    for (let i = 0; i < 120; i += 1) {
      await tryAction({
        provider: "aws",
        account: "management",
        principal: "user/bob",
        action: "s3:ListBuckets",
        resource: "*",
      });
    }
    const second = await aws.readAuditEvents(first.cursor);
    const listed = second.records.filter((r) => r.action === "s3:ListBuckets");
    expect(listed).toHaveLength(120);
    expect(new Set(second.records.map((r) => r.id)).size).toBe(second.records.length);
    const times = second.records.map((r) => r.time.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const third = await aws.readAuditEvents(second.cursor);
    expect(third.records).toEqual([]);
    aws.close();
  });

  it("retries throttled Organizations calls and succeeds", async () => {
    await control("/sandbox/control/throttle", { service: "organizations", count: 2 });
    const entries = await aws.listHierarchy();
    expect(entries.length).toBeGreaterThan(10);
  });

  it("gives up after the retry budget and surfaces the throttling error", async () => {
    await control("/sandbox/control/throttle", { service: "organizations", count: 10 });
    await expect(aws.findScpByName("anything")).rejects.toMatchObject({ name: "TooManyRequestsException" });
    await control("/sandbox/control/throttle", { service: "organizations", count: 0 });
  });
});

describe("Azure adapter against the sandbox", () => {
  it("passes every connection check with the sandbox's credentials", async () => {
    const checks = await azure.verify();
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual([
      "Sign in to Entra ID",
      "Read management groups",
      "Read policy assignments",
      "Read the Activity Log",
    ]);
  });

  it("reports a wrong client secret as such", async () => {
    const wrong = createAzureProvider({
      ...sandboxAzureConnection(cloud),
      credential: { kind: "secret", clientSecret: "wrong" },
    });
    const checks = await wrong.verify();
    wrong.close();
    expect(checks).toHaveLength(1);
    expect(checks[0]?.message).toMatch(/client secret or certificate was refused/);
  });

  it("lists management groups, subscriptions and resource groups, parents first", async () => {
    const entries = await azure.listHierarchy();
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(entries[0]?.type).toBe("AZURE_MANAGEMENT_GROUP");
    expect(entries[0]?.parentExternalId).toBeUndefined();
    expect(entries.filter((e) => e.type === "AZURE_SUBSCRIPTION")).toHaveLength(7);
    expect(entries.filter((e) => e.type === "AZURE_RESOURCE_GROUP")).toHaveLength(14);
    expect(byName.get("corp")?.parentExternalId).toBe(byName.get("landing-zones")?.externalId);
    const corpProd = byName.get("corp-prod");
    expect(corpProd?.externalId).toMatch(/^\/subscriptions\/[^/]+$/);
    expect(byName.get("rg-corp-prod-app")?.parentExternalId).toBe(corpProd?.externalId);
    const position = new Map(entries.map((e, i) => [e.externalId.toLowerCase(), i]));
    for (const e of entries) {
      if (e.parentExternalId)
        expect(position.get(e.parentExternalId.toLowerCase())).toBeLessThan(
          position.get(e.externalId.toLowerCase())!,
        );
    }
  });

  it("puts a compiled definition and assignment, exempts a waiver, and removes them; the sandbox enforces each step", async () => {
    const entries = await azure.listHierarchy();
    const subscription = entries.find((e) => e.name === "corp-dev")!.externalId;
    const subscriptionId = subscription.split("/")[2]!;
    const resourceGroup = `${subscription}/resourceGroups/rg-corp-dev-data`;
    const input = bundle({
      definition: definition("storage-accounts-https-only"),
      scopes: [{ id: subscription }],
    });
    const compiled = compileAzureBundle(input);
    const attempt = (name: string) =>
      tryAction({
        provider: "azure",
        principal: "alice",
        action: "write",
        resource: `${resourceGroup}/providers/Microsoft.Storage/storageAccounts/${name}`,
        context: { "properties.supportsHttpsTrafficOnly": false, location: "westeurope" },
      });

    const definitionId = await azure.putDefinition(compiled.definition);
    expect(definitionId.toLowerCase()).toBe(compiled.definition.id.toLowerCase());
    const assignment = compiled.assignments[0]!;
    const assignmentId = await azure.putAssignment(assignment);
    expect(assignmentId.toLowerCase()).toBe(assignment.id.toLowerCase());
    // Azure applies the new assignment minutes later, as the provider states.
    expect(azure.policyPropagationSeconds).toBe(PROPAGATION_SECONDS);
    expect(await attempt("stadapter0")).toBe(200);
    await propagated();
    expect(await attempt("stadapter1")).toBe(403);

    const waived = compileAzureBundle({
      ...input,
      waivers: [
        { id: "w-1", key: input.key, expiresAt: new Date(Date.now() + 3_600_000), scope: resourceGroup },
      ],
    });
    const exemption = waived.exemptions[0]!;
    const exemptionId = await azure.putExemption(exemption);
    expect(exemptionId.toLowerCase()).toBe(exemption.id.toLowerCase());
    await propagated();
    expect(await attempt("stadapter2")).toBe(200);

    await azure.removeExemption(exemption.id);
    await azure.removeExemption(exemption.id); // already gone: no error
    expect(await attempt("stadapter3")).toBe(403);

    await azure.removeAssignment(assignment.id);
    await azure.removeAssignment(assignment.id);
    expect(await attempt("stadapter4")).toBe(200);
    await azure.removeDefinition(compiled.definition.id);
    await azure.removeDefinition(compiled.definition.id);

    // Read before the events are submitted, then after: those that arrive late, behind newer ones
    // already read, are returned by the next read, each once.
    const early = await azure.readAuditEvents(undefined, { since: new Date(Date.now() - 600_000) });
    await control("/sandbox/control/clock", { advanceSeconds: DEFAULT_ACTIVITY_LOG_LAG_MS / 1000 });
    const late = await azure.readAuditEvents(early.cursor);
    const records = [...early.records, ...late.records];
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    const denied = records.filter(
      (r) => r.scopeId === subscriptionId && r.errorCode === "RequestDisallowedByPolicy",
    );
    expect(denied.map((r) => (r.raw as { resourceId: string }).resourceId.split("/").pop()).sort()).toEqual([
      "stadapter1",
      "stadapter3",
    ]);
    const after = await azure.readAuditEvents(late.cursor);
    expect(after.records.filter((r) => records.some((e) => e.id === r.id))).toEqual([]);
  });

  it("reads the non-compliant state an ALERT assignment records", async () => {
    const entries = await azure.listHierarchy();
    const subscription = entries.find((e) => e.name === "online-dev")!.externalId;
    const compiled = compileAzureBundle(
      bundle({
        definition: definition("storage-accounts-https-only"),
        scopes: [{ id: subscription }],
        mode: "ALERT",
      }),
    );
    await azure.putDefinition(compiled.definition);
    const assignmentId = await azure.putAssignment(compiled.assignments[0]!);
    await propagated();
    const resourceId = `${subscription}/resourceGroups/rg-online-dev-app/providers/Microsoft.Storage/storageAccounts/stalert1`;
    expect(
      await tryAction({
        provider: "azure",
        principal: "bob",
        action: "write",
        resource: resourceId,
        context: { "properties.supportsHttpsTrafficOnly": false, location: "westeurope" },
      }),
    ).toBe(200);
    const states = await azure.readCompliance();
    const mine = states.filter((s) => s.policyAssignmentId.toLowerCase() === assignmentId.toLowerCase());
    expect(mine.map((s) => [s.resourceId.toLowerCase(), s.compliant])).toContainEqual([
      resourceId.toLowerCase(),
      false,
    ]);
    await azure.removeAssignment(assignmentId);
    await azure.removeDefinition(compiled.definition.id);
  });

  it("retries a throttled ARM call after Retry-After", async () => {
    await control("/sandbox/control/throttle", { service: "arm", count: 1 });
    const started = Date.now();
    const entries = await azure.listHierarchy();
    expect(entries.length).toBeGreaterThan(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
