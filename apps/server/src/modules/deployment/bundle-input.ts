import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import { validateBundleParameters } from "@palisade/policy-engine/compilers/tree";
import { invalidArgument, invalidField } from "../../rpc/errors";
import type { HierarchyNodeRow } from "../connector/connector-api";
import type { StoredScope } from "./bundle-repository";
import type { ManagedBy } from "./deployment-schema";

// Lengths of names, how many scopes and the size of the parameters are bounds of the contract
// (and of the validation interceptor), checked before a handler runs.

export function parseName(raw: string, field = "name"): string {
  const name = raw.trim();
  if (name.length === 0) throw invalidField(field, `required.`);
  return name;
}

/** Where an object applied from a file comes from; absent when made by hand. */
export function parseManagedBy(raw: { path: string; commit: string } | undefined): ManagedBy | null {
  if (!raw) return null;
  const path = raw.path.trim();
  if (path === "") throw invalidField("managed_by.path", "required.");
  return { path, commit: raw.commit.trim() };
}

/** An empty namespace means none. */
export function parseNamespace(raw: string | undefined): string | null {
  const namespace = raw?.trim() ?? "";
  return namespace === "" ? null : namespace;
}

/**
 * Checks the parameters against the definition (unknown names, missing values, types, allowed
 * values) and answers every problem at once, each naming its field.
 */
export function parseParameters(definition: Definition, raw: Record<string, unknown> | undefined) {
  const parameters = raw ?? {};
  const errors = validateBundleParameters(definition, parameters);
  if (errors.length > 0) {
    throw invalidArgument(
      `Invalid parameters: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
      errors.map((e) => ({
        field: e.field.startsWith("parameters.") ? e.field : `parameters.${e.field}`,
        message: e.message,
      })),
    );
  }
  return parameters;
}

/**
 * Resolves requested scopes against the tenant's synced hierarchy: every scope must exist, be of
 * the definition's cloud, and all of them (excluded ones too) must be reached through one connector.
 */
export function resolveScopes(
  definition: Definition,
  requested: readonly Scope[],
  excludedRequested: readonly Scope[],
  nodes: readonly HierarchyNodeRow[],
): { scopes: StoredScope[]; excluded: StoredScope[]; connectorId: string } {
  if (requested.length === 0) throw invalidField("scopes", "choose at least one scope.");
  const provider = providerOfEnforcer(definition.enforcer);
  let connectorId: string | undefined;

  const resolve = (scope: Scope, field: string): StoredScope => {
    const externalId = scope.externalId.trim();
    if (externalId === "") throw invalidField(field, `external_id is required.`);
    const candidates = nodes.filter(
      (node) =>
        node.externalId.toLowerCase() === externalId.toLowerCase() &&
        (scope.connectorId === "" || node.connectorId === scope.connectorId),
    );
    if (candidates.length === 0) {
      throw invalidField(
        field,
        `${externalId} is not in any connected hierarchy of this tenant; sync the connector or pick another scope.`,
      );
    }
    const node =
      candidates.find((c) => c.connectorId === connectorId) ??
      (candidates.length === 1 ? candidates[0] : undefined);
    if (!node) {
      throw invalidField(
        field,
        `${externalId} is reachable through several connectors; set its connector_id.`,
      );
    }
    if (node.provider !== provider) {
      throw invalidField(
        field,
        `${externalId} is an ${node.provider.toUpperCase()} scope, but ${definition.slug} is a policy for ${provider.toUpperCase()}.`,
      );
    }
    if (connectorId !== undefined && node.connectorId !== connectorId) {
      throw invalidField(field, `all scopes of a bundle must belong to one connector.`);
    }
    connectorId = node.connectorId;
    return {
      externalId: node.externalId,
      name: node.name,
      type: node.type,
      provider: node.provider as "aws" | "azure",
      connectorId: node.connectorId,
    };
  };

  const scopes = requested.map((scope, i) => resolve(scope, `scopes[${i}]`));
  const excluded = excludedRequested.map((scope, i) => resolve(scope, `excluded_scopes[${i}]`));
  const seen = new Set<string>();
  for (const scope of scopes) {
    if (seen.has(scope.externalId)) throw invalidField("scopes", `${scope.externalId} is listed twice.`);
    seen.add(scope.externalId);
  }
  for (const scope of excluded) {
    if (seen.has(scope.externalId)) {
      throw invalidField(
        "excluded_scopes",
        `${scope.externalId} is also a target scope; remove it from one of the lists.`,
      );
    }
  }
  return { scopes, excluded, connectorId: connectorId ?? "" };
}

/**
 * SCPs never restrict the organisation's management account
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html), so a
 * guardrail targeting it would show as deployed and deny nothing: it is refused with the reason.
 * An OU or root above it is fine; the guardrail applies to the member accounts there.
 */
export function refuseManagementAccount(
  scopes: readonly StoredScope[],
  managementAccountId: string | undefined,
) {
  const index = scopes.findIndex(
    (scope) => scope.provider === "aws" && scope.externalId === managementAccountId,
  );
  if (index < 0) return;
  throw invalidField(
    `scopes[${index}]`,
    `${managementAccountId} is the organisation's management account, which service control policies never restrict; a guardrail there would deny nothing. Target the member accounts, or an OU or the root (the guardrail applies to their member accounts).`,
  );
}
