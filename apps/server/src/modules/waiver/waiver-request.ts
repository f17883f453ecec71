import { Code, ConnectError } from "@connectrpc/connect";
import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { rolePermissions } from "@palisade/api/roles";
import { parseRoleName } from "../../auth/roles";
import type { Database } from "../../db/database";
import type { Caller } from "../../rpc/call-context";
import { callError } from "../../rpc/errors";
import { deploymentsOfBundle, membershipRole, parentScope } from "./waiver-context-repository";
import type { BundleRow, DeploymentRow } from "./waiver-repository";
import { describeTarget, enclosingScopes, type WaiverTarget } from "./waiver-rules";

const MAX_HIERARCHY_DEPTH = 12;

/**
 * The caller's standing in the tenant that owns the key: requesting a waiver on another
 * tenant's policy needs membership there, whatever tenant the caller is signed in to.
 */
export async function requireRequesterIn(db: Database, caller: Caller, bundle: BundleRow): Promise<void> {
  if (caller.kind === "api_key") {
    if (caller.tenantId !== bundle.tenantId) {
      throw new ConnectError(
        `Policy key ${bundle.key} belongs to another tenant; this API key can only request waivers for its own tenant's policies.`,
        Code.PermissionDenied,
      );
    }
    return;
  }
  const role = parseRoleName(await membershipRole(db, bundle.tenantId, caller.id));
  if (role === undefined) {
    throw new ConnectError(
      `Policy key ${bundle.key} belongs to a tenant you are not a member of. Ask an administrator of that tenant to invite you; any role there can request waivers.`,
      Code.PermissionDenied,
    );
  }
  if (!rolePermissions[role].includes(Permission.WAIVERS_REQUEST)) {
    throw new ConnectError(
      `Your role in the tenant that owns policy key ${bundle.key} does not grant WAIVERS_REQUEST; ask one of its administrators for a role that does.`,
      Code.PermissionDenied,
    );
  }
}

/** The ancestors of a target, innermost first, through the tenant's cloud hierarchy. */
async function scopeChain(db: Database, tenantId: string, target: WaiverTarget): Promise<string[]> {
  const chain = enclosingScopes(target);
  let current = chain.at(-1);
  for (let depth = 0; current && depth < MAX_HIERARCHY_DEPTH; depth++) {
    current = await parentScope(db, tenantId, current);
    if (current) chain.push(current);
  }
  return chain.map((s) => s.toLowerCase());
}

/** The waiver rows for the deployments `deploymentsFor` chose, one per deployment. */
export function waiverRowsFor(targets: { deployment: DeploymentRow; target: WaiverTarget }[]) {
  return targets.map(({ deployment, target }) => ({
    deploymentId: deployment.id,
    deploymentScope: deployment.scopeExternalId,
    scope: target.kind === "scope" ? target.externalId : null,
    resource: target.kind === "resource" ? target.externalId : null,
    principalArn: target.kind === "principal" ? target.arn : null,
  }));
}

/**
 * The deployments a new waiver attaches to: the one whose scope contains the target, or
 * with no target every deployment of the bundle (the waiver covers all its scopes). A resource
 * control policy applies to calls to the resources below its targets whoever the caller is,
 * principals of accounts outside the organisation included
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html): with
 * `outsidePrincipals`, a principal of an account that is in none of the tenant's scopes is waived on
 * every deployment of the bundle.
 */
export async function deploymentsFor(
  db: Database,
  bundle: BundleRow,
  target: WaiverTarget | undefined,
  options: { outsidePrincipals?: boolean } = {},
): Promise<{ deployment: DeploymentRow; target: WaiverTarget }[]> {
  const all = await deploymentsOfBundle(db, bundle.tenantId, bundle.id);
  if (all.length === 0) {
    throw new ConnectError(
      `Policy ${bundle.key} is not deployed to any scope yet, so there is nothing to waive.`,
      Code.FailedPrecondition,
    );
  }
  if (!target) {
    return all.map((deployment) => ({
      deployment,
      target: { kind: "scope", externalId: deployment.scopeExternalId },
    }));
  }
  const chain = await scopeChain(db, bundle.tenantId, target);
  for (const scope of chain) {
    const deployment = all.find((d) => d.scopeExternalId.toLowerCase() === scope);
    if (deployment) return [{ deployment, target }];
  }
  // The account alone, with no parent: the principal's account is not in the tenant's hierarchy.
  if (options.outsidePrincipals && target.kind === "principal" && chain.length === 1) {
    return all.map((deployment) => ({ deployment, target }));
  }
  throw callError(
    Code.InvalidArgument,
    `${describeTarget(target)} is not within any scope policy ${bundle.key} is deployed to.`,
    { product: ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE },
  );
}
