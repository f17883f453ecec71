import { ListPoliciesCommand } from "@aws-sdk/client-organizations";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { createAzureClients } from "../../src/cloud/azure/azure-clients";
import type { Database } from "../../src/db/database";
import { enqueueReconcile } from "../../src/jobs/reconcile-job";
import { hierarchyNodes } from "../../src/modules/connector/connector-schema";
import { bundles, deployments } from "../../src/modules/deployment/deployment-schema";
import { waitFor } from "./poll";
import { sandboxOrganizations } from "./sandbox-aws-clients";
import type { Credentials, TestServer } from "./test-server";

/** The sandbox connectors of the default tenant have synced their hierarchies. */
export async function waitForHierarchy(db: Database, tenantId: string): Promise<void> {
  await waitFor("the sandbox hierarchies", async () => {
    const nodes = await db.select().from(hierarchyNodes).where(eq(hierarchyNodes.tenantId, tenantId));
    return nodes.some((n) => n.provider === "aws") && nodes.some((n) => n.provider === "azure");
  });
}

/** The hierarchy's nodes in one list, each before its children. */
export function flatten(nodes: HierarchyNode[]): HierarchyNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

export async function node(db: Database, tenantId: string, name: string) {
  const [row] = await db
    .select()
    .from(hierarchyNodes)
    .where(and(eq(hierarchyNodes.tenantId, tenantId), eq(hierarchyNodes.name, name)));
  if (!row) throw new Error(`no hierarchy node named ${name}`);
  return row;
}

export async function bundleRow(db: Database, id: string) {
  const [row] = await db.select().from(bundles).where(eq(bundles.id, id));
  return row;
}

export async function deploymentRows(db: Database, bundleId: string) {
  return db.select().from(deployments).where(eq(deployments.bundleId, bundleId));
}

/** Waits until the bundle's status is one of `statuses` and answers its row. */
export async function waitForBundleStatus(db: Database, id: string, statuses: string[], timeoutMs = 30_000) {
  return waitFor(
    `bundle ${id} to be ${statuses.join(" or ")}`,
    async () => {
      const row = await bundleRow(db, id);
      return row && statuses.includes(row.status) ? row : undefined;
    },
    timeoutMs,
  );
}

/**
 * Waits until the bundle has finished deploying and expects it DEPLOYED; a failure names the bundle's
 * error code instead of timing out.
 */
export async function expectDeployed(db: Database, id: string, timeoutMs = 60_000) {
  const row = await waitForBundleStatus(db, id, ["DEPLOYED", "FAILED"], timeoutMs);
  expect(row.status, `bundle ${id} did not deploy: ${row.errorCodes.join(", ")}`).toBe("DEPLOYED");
  return row;
}

/**
 * Runs a reconcile of the bundle and waits until its attempt has ended: its job is no longer
 * waiting or running in the queue (pg-boss's `created` and `active`). The bundle's own row cannot
 * tell: a reconcile also writes it at its start, when it marks a failed deployment EVALUATING.
 */
export async function reconcileBundle(server: TestServer, bundleId: string) {
  const db = server.palisade.database.db;
  const before = await bundleRow(db, bundleId);
  const jobId = await enqueueReconcile(server.palisade.jobs, { tenantId: server.defaultTenantId, bundleId });
  if (jobId === null) {
    // The same reconcile was queued already: it rewrites the bundle's outcome even when nothing changed.
    await waitFor("the reconcile to finish", async () => {
      const row = await bundleRow(db, bundleId);
      return row && row.updatedAt.getTime() > (before?.updatedAt.getTime() ?? 0) ? row : undefined;
    });
    return;
  }
  await waitFor(`reconcile job ${jobId} to end`, async () => {
    const result = (await db.execute(sql`select state from pgboss.job where id = ${jobId}`)) as unknown as {
      rows: { state: string }[];
    };
    const state = result.rows[0]?.state;
    return state && state !== "created" && state !== "active" ? state : undefined;
  });
}

export interface TryResult {
  status: number;
  body: {
    error?: { Code?: string; Message?: string; code?: string; message?: string };
    /** The SCP and statement that denied (AWS). */
    policy?: { id: string; arn: string; name: string; sid?: string };
    [key: string]: unknown;
  };
  text: string;
}

/** Acts as a cloud user: POST /sandbox/try. */
export async function tryAction(sandbox: SandboxCloud, body: Record<string, unknown>): Promise<TryResult> {
  const response = await fetch(`${sandbox.url}/sandbox/try`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

export async function advanceSandboxClock(sandbox: SandboxCloud, seconds: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/control/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (!response.ok) throw new Error(`clock: ${response.status}`);
}

/** An ARM error the sandbox answers instead of serving a call (default: a resource lock's 409). */
export interface Refusal {
  status?: number;
  code?: string;
  message?: string;
}

/** Makes the sandbox's ARM answer the next `count` matching calls with the refusal; 0 lifts it. */
export async function refuseInSandbox(
  sandbox: SandboxCloud,
  method: string,
  pathContains: string,
  count: number,
  refusal: Refusal = {},
) {
  const response = await fetch(`${sandbox.url}/sandbox/control/refuse`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ method, pathContains, count, ...refusal }),
  });
  if (!response.ok) throw new Error(`refuse: ${response.status} ${await response.text()}`);
}

/** Refuses every matching ARM call until the returned function lifts the refusal. */
export async function refuseUntilLifted(
  sandbox: SandboxCloud,
  method: string,
  pathContains: string,
  refusal: Refusal = {},
): Promise<() => Promise<void>> {
  await refuseInSandbox(sandbox, method, pathContains, 1_000, refusal);
  return () => refuseInSandbox(sandbox, method, pathContains, 0);
}

/** Sets an Azure subscription of the sandbox Enabled or Disabled (read-only). */
export async function setSubscriptionState(sandbox: SandboxCloud, subscription: string, state: string) {
  const response = await fetch(`${sandbox.url}/sandbox/control/subscription`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ subscription, state }),
  });
  if (!response.ok) throw new Error(`subscription: ${response.status} ${await response.text()}`);
}

/** Lowers the sandbox's limit of policy exemptions per scope (Azure allows 1,000); null restores it. */
export async function limitExemptionsPerScope(sandbox: SandboxCloud, limit: number | null) {
  const response = await fetch(`${sandbox.url}/sandbox/control/limits`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ policyExemptionsPerScope: limit }),
  });
  if (!response.ok) throw new Error(`limits: ${response.status} ${await response.text()}`);
}

/** Deletes a resource group of the sandbox's Azure tenant through ARM, as someone would in the portal. */
export async function deleteResourceGroup(sandbox: SandboxCloud, resourceGroupId: string) {
  const [, , subscriptionId = "", , name = ""] = resourceGroupId.split("/");
  const azure = createAzureClients({
    tenantId: sandbox.azure.tenantId,
    clientId: sandbox.azure.clientId,
    credential: { kind: "secret", clientSecret: sandbox.azure.clientSecret },
    armEndpoint: sandbox.azure.armEndpoint,
    authorityHost: sandbox.azure.authorityHost,
    caCertPem: sandbox.azure.caCertPem,
  });
  try {
    await azure.clientsFor(subscriptionId).rm.resourceGroups.beginDeleteAndWait(name);
  } finally {
    azure.close();
  }
}

export async function throttleSandbox(sandbox: SandboxCloud, service: string, count: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/control/throttle`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service, count }),
  });
  if (!response.ok) throw new Error(`throttle: ${response.status}`);
}

/** SCPs of the sandbox organisation with this name (listed as the management account). */
export async function scpsNamed(
  sandbox: SandboxCloud,
  name: string,
): Promise<{ id: string; name: string }[]> {
  const client = sandboxOrganizations(sandbox);
  try {
    const found: { id: string; name: string }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListPoliciesCommand({ Filter: "SERVICE_CONTROL_POLICY", NextToken: token }),
      );
      for (const policy of page.Policies ?? []) {
        if (policy.Name === name) found.push({ id: policy.Id ?? "", name: policy.Name });
      }
      token = page.NextToken;
    } while (token);
    return found;
  } finally {
    client.destroy();
  }
}

export const HTTPS_ONLY_SLUG = "storage-accounts-https-only";

/**
 * An HTTPS-only storage guardrail in PREVENT (AUTO approval), deployed on an Azure subscription
 * (or on some of its resource groups), and a plain-HTTP storage write in the subscription's data
 * resource group to try against it.
 */
export async function deployHttpsOnly(
  server: TestServer,
  admin: Credentials,
  input: {
    subscriptionName: string;
    name: string;
    storageAccount: string;
    location: string;
    resourceGroups?: ("app" | "data")[];
  },
) {
  const db = server.palisade.database.db;
  const sandbox = server.palisade.cloud.sandbox;
  if (!sandbox) throw new Error("the sandbox cloud is not running");
  const subscription = await node(db, server.defaultTenantId, input.subscriptionName);
  const targets = input.resourceGroups
    ? await Promise.all(
        input.resourceGroups.map((group) =>
          node(db, server.defaultTenantId, `rg-${input.subscriptionName}-${group}`),
        ),
      )
    : [subscription];
  const { bundle } = await server.client(DeploymentManagerService, admin).createBundle({
    name: input.name,
    policySlug: HTTPS_ONLY_SLUG,
    scopes: targets.map((target) => ({ externalId: target.externalId, connectorId: target.connectorId })),
    mode: DeploymentMode.PREVENT,
    isVisible: true,
    waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
  });
  const bundleId = bundle?.entity?.id ?? "";
  const key = bundle?.key ?? "";
  await expectDeployed(db, bundleId, 30_000);
  const resource = `${subscription.externalId}/resourceGroups/rg-${input.subscriptionName}-data/providers/Microsoft.Storage/storageAccounts/${input.storageAccount}`;
  const writePlain = () =>
    tryAction(sandbox, {
      provider: "azure",
      principal: "alice",
      action: "write",
      resource,
      context: { location: input.location, "properties.supportsHttpsTrafficOnly": false },
    });
  return { bundleId, key, subscription, writePlain };
}
