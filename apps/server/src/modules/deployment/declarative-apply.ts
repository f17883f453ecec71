import { AWS_POLICY_TYPE_OF_ENFORCER } from "@palisade/policy-engine/catalogue/definition-schema";
import {
  type CompiledDeclarative,
  DEFAULT_DECLARATIVE_LIMITS,
} from "@palisade/policy-engine/compilers/aws/compile-declarative";
import type { AwsCloudProvider } from "../../cloud/cloud-provider";
import { errorCode } from "../../cloud/errors";
import type { Database } from "../../db/database";
import { listHierarchyNodes } from "../connector/connector-api";
import { type ApplyContext, failDeployments, reportMissing, rethrowTransient } from "./bundle-apply";
import { documentHash } from "./bundle-compile";
import { cloudFailure, type DeploymentErrorCode, type Failure } from "./cloud-failure";
import type { DeploymentRow } from "./deployment-repository";
import { updateDeployments } from "./sync-state-repository";

export const DECLARATIVE_EC2 = AWS_POLICY_TYPE_OF_ENFORCER.aws_declarative_ec2;

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
 * Why writing the declarative policy failed. Enabling the policy type is the organisation's
 * decision (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html):
 * Palisade says what is missing and how to enable it.
 */
export function declarativeFailure(
  error: unknown,
  wanted: boolean,
  targets: readonly string[],
): Failure<DeploymentErrorCode> {
  if (errorCode(error) === "PolicyTypeNotEnabledException")
    return {
      code: "CREATE_POLICY_PROVIDER_FAILED",
      message:
        "The organisation has not enabled declarative policies for EC2. Its management account enables " +
        "them with `aws organizations enable-policy-type --root-id <root id> --policy-type " +
        `${DECLARATIVE_EC2}\` (or in the Organizations console, Policies), then Sync the bundle.`,
    };
  return cloudFailure(error, wanted ? "attach" : "delete", targets.join(", "));
}

/**
 * Targets the policy is not yet attached to that already hold the most declarative policies
 * AWS Organizations allows per target (the documented default, 10).
 */
export async function fullTargets(
  provider: AwsCloudProvider,
  targets: readonly string[],
  policyId: string | undefined,
): Promise<string[]> {
  const attached = new Set(policyId ? await provider.listScpTargets(policyId) : []);
  const full: string[] = [];
  for (const target of targets) {
    if (attached.has(target)) continue;
    const count = (await provider.listTargetScps(target, DECLARATIVE_EC2)).length;
    if (count >= DEFAULT_DECLARATIVE_LIMITS.perTarget) full.push(target);
  }
  return full;
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
    if (wanted) {
      const full = await fullTargets(provider, compiled.targets, existing?.id);
      if (full.length > 0) {
        await failDeployments(run, live, {
          code: "POLICY_LIMIT_EXCEEDED",
          message:
            `${full.join(", ")} already ${full.length === 1 ? "has" : "have"} the ${DEFAULT_DECLARATIVE_LIMITS.perTarget} ` +
            "declarative policies AWS Organizations allows per root, OU or account " +
            "(https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html). " +
            "Detach one there, or deploy this guardrail to another scope.",
        });
        return;
      }
      nativeId = (await provider.applyScp(compiled, existing?.id, DECLARATIVE_EC2)).id;
    } else if (existing) await provider.removeScp(existing.id);
  } catch (error) {
    rethrowTransient(error, options);
    const failure = declarativeFailure(error, wanted, compiled.targets);
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
