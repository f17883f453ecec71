import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type APIRequestContext, expect, request } from "@playwright/test";
import { adminStorageState, baseURL } from "./admin";
import { sandboxURL } from "./sandbox";

export const bundlePolicySlug = "protect-s3-account-public-access-block";
/** The catalogue's name of that policy: the request page's card title. */
export const bundlePolicyName = "Prevent changing the account-level S3 Block Public Access settings";
export const deniedAction = "s3:PutAccountPublicAccessBlock";

export interface DeployedBundle {
  key: string;
  /** An account under the bundle's OU, where the action is denied. */
  account: string;
}

interface HierarchyNodeJson {
  name?: string;
  type?: string;
  externalId?: string;
  connectorId?: string;
  children?: HierarchyNodeJson[];
}

const flatten = (nodes: HierarchyNodeJson[]): HierarchyNodeJson[] =>
  nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

/** A unary Connect call with the JSON encoding, as the administrator. */
export async function callAsAdmin<Res>(api: APIRequestContext, method: string, body: unknown): Promise<Res> {
  const response = await api.post(`/${method}`, {
    data: body,
    // The session cookie is accepted from Palisade's own pages only.
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
  });
  expect(response.ok(), `${method}: ${await response.text()}`).toBe(true);
  return (await response.json()) as Res;
}

export function adminApi(): Promise<APIRequestContext> {
  return request.newContext({ baseURL, storageState: adminStorageState });
}

/**
 * An AWS PREVENT bundle with AUTO waivers on the sandbox organisation's Workloads OU, deployed
 * through the API as the administrator would, and waited for until the cloud enforces it.
 */
export async function deployWaiverBundle(): Promise<DeployedBundle> {
  // One bundle per run: a worker restarted after a failure reuses it, so the OU carries one SCP
  // and a deny names this bundle's.
  const saved = join(process.env.PALISADE_E2E_DATA_DIR ?? tmpdir(), "e2e-waiver-bundle.json");
  if (existsSync(saved)) return JSON.parse(readFileSync(saved, "utf8")) as DeployedBundle;
  const deployed = await createAndDeploy();
  writeFileSync(saved, JSON.stringify(deployed));
  return deployed;
}

async function createAndDeploy(): Promise<DeployedBundle> {
  const api = await adminApi();
  try {
    let ou: HierarchyNodeJson | undefined;
    await expect
      .poll(
        async () => {
          const { roots = [] } = await callAsAdmin<{ roots?: HierarchyNodeJson[] }>(
            api,
            "palisade.connector.v1.ConnectorService/ListHierarchy",
            { provider: "CLOUD_PROVIDER_AWS" },
          );
          ou = flatten(roots).find((node) => node.name === "Workloads");
          return ou?.externalId;
        },
        { timeout: 60_000, message: "the sandbox AWS organisation is synced" },
      )
      .toBeTruthy();
    const account = flatten(ou?.children ?? []).find((node) => node.type === "SCOPE_TYPE_AWS_ACCOUNT");
    if (!ou?.externalId || !account?.externalId) throw new Error("the Workloads OU has no account");

    const { bundle } = await callAsAdmin<{ bundle?: { key?: string; entity?: { id?: string } } }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
      {
        name: "Account Block Public Access",
        policySlug: bundlePolicySlug,
        scopes: [{ provider: "CLOUD_PROVIDER_AWS", externalId: ou.externalId, connectorId: ou.connectorId }],
        mode: "DEPLOYMENT_MODE_PREVENT",
        isVisible: true,
        waiverSettings: { approvalMode: "WAIVER_APPROVAL_MODE_AUTO" },
      },
    );
    const key = bundle?.key ?? "";
    expect(key).toMatch(/^[0-9A-Z]{7}$/);
    await expect
      .poll(
        async () => {
          const got = await callAsAdmin<{ bundle?: { bundle?: { status?: string } } }>(
            api,
            "palisade.deployment.v1.DeploymentManagerService/GetBundle",
            { id: bundle?.entity?.id },
          );
          return got.bundle?.bundle?.status;
        },
        { timeout: 60_000, message: "the bundle is deployed" },
      )
      .toBe("DEPLOYMENT_STATUS_DEPLOYED");
    return { key, account: account.externalId };
  } finally {
    await api.dispose();
  }
}

/** The deny message an engineer sees when the SCP stops the action: the real sandbox answer. */
export async function awsDenyMessage(account: string): Promise<string> {
  const api = await request.newContext();
  try {
    const tryAction = () =>
      api.post(`${sandboxURL}/sandbox/try`, {
        data: { provider: "aws", principal: "user/alice", account, action: deniedAction, resource: "*" },
      });
    // A waiver cancelled just before is taken out of the SCP within moments.
    await expect.poll(async () => (await tryAction()).status(), { timeout: 30_000 }).toBe(403);
    const response = await tryAction();
    expect(response.status()).toBe(403);
    const body = (await response.json()) as { error?: { Message?: string } };
    const message = body.error?.Message ?? "";
    expect(message).toContain("service_control_policy/p-");
    // As the AWS CLI prints it.
    return `An error occurred (AccessDenied) when calling the PutAccountPublicAccessBlock operation: ${message}`;
  } finally {
    await api.dispose();
  }
}

/** The deployed waiver bundle with one waiver on it, and the id of its policy page. */
export async function waiverBundleWithWaiver(comment: string): Promise<{ key: string; policyId: string }> {
  const { key } = await deployWaiverBundle();
  const api = await adminApi();
  try {
    const got = await callAsAdmin<{ bundle?: { bundle?: { entity?: { id?: string } } } }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/GetBundle",
      { key },
    );
    await callAsAdmin(api, "palisade.waiver.v1.WaiverService/Create", {
      key,
      duration: "3600",
      comment,
      createSource: "WAIVER_CREATE_SOURCE_FORM",
    });
    return { key, policyId: got.bundle?.bundle?.entity?.id ?? "" };
  } finally {
    await api.dispose();
  }
}
