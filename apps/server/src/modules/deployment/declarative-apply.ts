import type { CompiledDeclarative } from "@palisade/policy-engine/compilers/aws/compile-declarative";
import type { AwsCloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { listHierarchyNodes } from "../connector/connector-repository";
import { type ApplyContext, failDeployments, reportMissing, rethrowTransient } from "./bundle-apply";
import { documentHash } from "./bundle-compile";
import { cloudFailure } from "./cloud-failure";
import type { DeploymentRow } from "./deployment-repository";
import { updateDeployments } from "./sync-state-repository";

export const DECLARATIVE_EC2 = "DECLARATIVE_POLICY_EC2";

/** The parent of each OU and account of a connector's organisation, as last synced. */
export async function parentOfConnector(
  db: Database,
  tenantId: string,
  connectorId: string | null,
): Promise<Record<string, string>> {
  if (!connectorId) return {};
  const nodes = await listHierarchyNodes(db, tenantId, { connectorIds: [connectorId] });
  return Object.fromEntries(
    nodes.flatMap((node) => (node.parentExternalId ? [[node.externalId, node.parentExternalId]] : [])),
  );
}

/**
 * A declarative guardrail is one Organizations policy of type DECLARATIVE_POLICY_EC2 per bundle,
 * named `palisade-<KEY>-<slug>` and tagged as Palisade's like its SCPs, attached to exactly the
 * compiled targets: the bundle's scopes, split around accounts that hold a waiver. In ALERT mode,
 * or when no scope is left, the policy is detached everywhere and deleted.
 */
export async function applyAwsDeclarative(
  run: ApplyContext,
  provider: AwsCloudProvider,
  compiled: CompiledDeclarative,
  live: DeploymentRow[],
  leaving: DeploymentRow[],
): Promise<void> {
  const { db, tenantId, options } = run;
  const wanted = compiled.attach && live.length > 0;
  const hash = documentHash(JSON.stringify([compiled.content, [...compiled.targets].sort()]));
  let nativeId: string | null = null;
  try {
    const existing = await provider.findScpByName(compiled.name, DECLARATIVE_EC2);
    if (options.detectMissing && wanted && !existing)
      await reportMissing(
        run,
        live,
        `The declarative policy ${compiled.name} was removed outside Palisade; Palisade redeployed it.`,
      );
    if (wanted) nativeId = (await provider.applyScp(compiled, existing?.id, DECLARATIVE_EC2)).id;
    else if (existing) await provider.removeScp(existing.id);
  } catch (error) {
    rethrowTransient(error, options);
    const failure = cloudFailure(error, wanted ? "attach" : "delete", compiled.targets.join(", "));
    await failDeployments(run, live, failure);
    await updateDeployments(
      db,
      tenantId,
      leaving.map((d) => d.id),
      { status: "DELETING", errorCode: failure.code, errorMessage: failure.message },
    );
    return;
  }
  await updateDeployments(
    db,
    tenantId,
    live.map((d) => d.id),
    { nativeId, nativeDocumentHash: hash, status: "DEPLOYED", errorCode: null, errorMessage: null },
  );
  await updateDeployments(
    db,
    tenantId,
    leaving.map((d) => d.id),
    { status: "DELETED", errorCode: null, errorMessage: null },
  );
}
