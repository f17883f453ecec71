import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, request } from "@playwright/test";
import { adminApi, callAsAdmin } from "./admin-api";
import { awsNodeNamed, deployBundle, flatten } from "./deploy-bundle";
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

export { adminApi, callAsAdmin } from "./admin-api";

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
    const ou = await awsNodeNamed(api, "Workloads");
    const account = flatten(ou.children ?? []).find((node) => node.type === "SCOPE_TYPE_AWS_ACCOUNT");
    if (!ou.externalId || !account?.externalId) throw new Error("the Workloads OU has no account");
    const { key } = await deployBundle(api, {
      name: "Account Block Public Access",
      policySlug: bundlePolicySlug,
      scope: ou,
      approvalMode: "WAIVER_APPROVAL_MODE_AUTO",
    });
    expect(key).toMatch(/^[0-9A-Z]{7}$/);
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
