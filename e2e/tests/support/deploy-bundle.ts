import { type APIRequestContext, expect } from "@playwright/test";
import { callAsAdmin } from "./admin-api";

/** A node of ListHierarchy's answer, in the JSON encoding. */
export interface HierarchyNodeJson {
  name?: string;
  type?: string;
  externalId?: string;
  connectorId?: string;
  children?: HierarchyNodeJson[];
}

export const flatten = (nodes: HierarchyNodeJson[]): HierarchyNodeJson[] =>
  nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

/** The node of the sandbox AWS organisation with this name, once the connector has synced it. */
export async function awsNodeNamed(api: APIRequestContext, name: string): Promise<HierarchyNodeJson> {
  let found: HierarchyNodeJson | undefined;
  await expect
    .poll(
      async () => {
        const { roots = [] } = await callAsAdmin<{ roots?: HierarchyNodeJson[] }>(
          api,
          "palisade.connector.v1.ConnectorService/ListHierarchy",
          { provider: "CLOUD_PROVIDER_AWS" },
        );
        found = flatten(roots).find((node) => node.name === name);
        return found?.externalId;
      },
      { timeout: 60_000, message: "the sandbox AWS organisation is synced" },
    )
    .toBeTruthy();
  if (!found) throw new Error(`no AWS node named ${name}`);
  return found;
}

export interface BundleToDeploy {
  name: string;
  policySlug: string;
  /** The AWS node it is deployed on. */
  scope: HierarchyNodeJson;
  /** Who decides its waivers (the server's default when left out). */
  approvalMode?: "WAIVER_APPROVAL_MODE_AUTO" | "WAIVER_APPROVAL_MODE_MANUAL";
}

/**
 * Creates a PREVENT bundle through the API as the administrator would, and waits until the
 * cloud enforces it (DEPLOYED).
 */
export async function deployBundle(
  api: APIRequestContext,
  input: BundleToDeploy,
): Promise<{ id: string; key: string }> {
  const { bundle } = await callAsAdmin<{ bundle?: { key?: string; entity?: { id?: string } } }>(
    api,
    "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
    {
      name: input.name,
      policySlug: input.policySlug,
      scopes: [
        {
          provider: "CLOUD_PROVIDER_AWS",
          externalId: input.scope.externalId,
          connectorId: input.scope.connectorId,
        },
      ],
      mode: "DEPLOYMENT_MODE_PREVENT",
      isVisible: true,
      ...(input.approvalMode ? { waiverSettings: { approvalMode: input.approvalMode } } : {}),
    },
  );
  const id = bundle?.entity?.id ?? "";
  await expect
    .poll(
      async () =>
        (
          await callAsAdmin<{ bundle?: { bundle?: { status?: string } } }>(
            api,
            "palisade.deployment.v1.DeploymentManagerService/GetBundle",
            { id },
          )
        ).bundle?.bundle?.status,
      { timeout: 60_000, message: "the bundle is deployed" },
    )
    .toBe("DEPLOYMENT_STATUS_DEPLOYED");
  return { id, key: bundle?.key ?? "" };
}
