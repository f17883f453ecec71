import type { ArmObject, AzureState } from "../state/model";
import { BUILT_IN_DEFINITIONS } from "./built-in-definitions";
import { sameScope, scopeChain } from "./scopes";

export const AUTH_COLLECTIONS = {
  policydefinitions: {
    type: "Microsoft.Authorization/policyDefinitions",
    key: "policyDefinitions",
    notFound: "PolicyDefinitionNotFound",
    label: "policy definition",
  },
  policyassignments: {
    type: "Microsoft.Authorization/policyAssignments",
    key: "policyAssignments",
    notFound: "PolicyAssignmentNotFound",
    label: "policy assignment",
  },
  policyexemptions: {
    type: "Microsoft.Authorization/policyExemptions",
    key: "policyExemptions",
    notFound: "PolicyExemptionNotFound",
    label: "policy exemption",
  },
} as const;
export type Collection = (typeof AUTH_COLLECTIONS)[keyof typeof AUTH_COLLECTIONS];

export function objectScopeOf(o: ArmObject, collection: Collection): string {
  return o.id.slice(0, o.id.length - `/providers/${collection.type}/${o.name}`.length);
}

/** The properties ARM fills in with their defaults when an object is written. */
export function normalise(
  collection: Collection,
  scope: string,
  p: Record<string, unknown>,
): Record<string, unknown> {
  if (collection.key === "policyDefinitions") {
    return { policyType: "Custom", mode: "All", parameters: {}, metadata: {}, ...p };
  }
  if (collection.key === "policyAssignments") {
    return { notScopes: [], parameters: {}, enforcementMode: "Default", metadata: {}, ...p, scope };
  }
  return { policyDefinitionReferenceIds: [], metadata: {}, ...p };
}

const DEFINITION_FILTER = /^\s*(policyType|category)\s+eq\s+'([^']*)'\s*$/i;

/**
 * `Policy Definitions - List` at a subscription, `List By Management Group` and `List Built In`
 * (https://learn.microsoft.com/en-us/rest/api/policy/policy-definitions/list): without a filter, the
 * definitions at the scope, those of the management groups above it and the built-ins;
 * `atExactScope()` only those at the scope; `policyType eq '{value}'` or `category eq '{value}'`
 * those of that type or category (ARM takes `category eq 'SQL'`, not the `-eq` the page shows:
 * azure-rest-api-specs #31002). `scope` is "" for the built-ins' own list. Undefined for any other
 * filter.
 */
export function listDefinitions(azure: AzureState, scope: string, filter: string | undefined) {
  const chain = scope === "" ? [] : scopeChain(azure, scope);
  const custom = azure.policyDefinitions.filter((d) => {
    const at = objectScopeOf(d, AUTH_COLLECTIONS.policydefinitions);
    return chain.some((s) => sameScope(s, at));
  });
  const all = [...custom, ...BUILT_IN_DEFINITIONS];
  if (filter === undefined || filter.trim() === "") return all;
  if (filter.replace(/\s/g, "").toLowerCase() === "atexactscope()") {
    return custom.filter((d) => sameScope(objectScopeOf(d, AUTH_COLLECTIONS.policydefinitions), scope));
  }
  const m = DEFINITION_FILTER.exec(filter);
  if (!m) return undefined;
  const [, field, value] = m;
  return all.filter((d) => {
    const p = (d.properties ?? {}) as { policyType?: string; metadata?: { category?: string } };
    const actual = field!.toLowerCase() === "policytype" ? p.policyType : p.metadata?.category;
    return actual?.toLowerCase() === value!.toLowerCase();
  });
}
