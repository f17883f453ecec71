import type { ArmObject } from "../state/model";

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
