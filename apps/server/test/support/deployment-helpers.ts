import { ListPoliciesCommand, OrganizationsClient } from "@aws-sdk/client-organizations";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../src/db/database";
import { hierarchyNodes } from "../../src/db/schema/connectors";
import { bundles, deployments } from "../../src/db/schema/deployments";

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined | false;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/** The sandbox connectors of the default tenant have synced their hierarchies. */
export async function waitForHierarchy(db: Database, tenantId: string): Promise<void> {
  await waitFor("the sandbox hierarchies", async () => {
    const nodes = await db.select().from(hierarchyNodes).where(eq(hierarchyNodes.tenantId, tenantId));
    return nodes.some((n) => n.provider === "aws") && nodes.some((n) => n.provider === "azure");
  });
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
  const client = new OrganizationsClient({
    endpoint: sandbox.aws.endpoint,
    region: sandbox.aws.region,
    credentials: { accessKeyId: sandbox.aws.accessKeyId, secretAccessKey: sandbox.aws.secretAccessKey },
  });
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
