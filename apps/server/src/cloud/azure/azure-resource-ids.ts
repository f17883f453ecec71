interface ArmParts {
  kind: "managementGroup" | "subscription";
  id: string;
  name: string;
}

/** Splits `/providers/Microsoft.Management/managementGroups/<mg>/providers/Microsoft.Authorization/<type>/<name>`. */
export function parseDefinitionId(id: string): ArmParts {
  const mg =
    /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)\/providers\/Microsoft\.Authorization\/policyDefinitions\/([^/]+)$/i.exec(
      id,
    );
  if (mg?.[1] && mg[2]) return { kind: "managementGroup", id: mg[1], name: mg[2] };
  const sub =
    /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Authorization\/policyDefinitions\/([^/]+)$/i.exec(id);
  if (sub?.[1] && sub[2]) return { kind: "subscription", id: sub[1], name: sub[2] };
  throw new Error(`Not a policy definition id at a management group or subscription: ${id}`);
}

/** `{scope}/providers/Microsoft.Authorization/policyAssignments/{name}` → scope and name. */
export function parseAssignmentId(id: string): { scope: string; name: string } {
  const match = /^(.*)\/providers\/Microsoft\.Authorization\/policyAssignments\/([^/]+)$/i.exec(id);
  if (!match?.[2]) throw new Error(`Not a policy assignment id: ${id}`);
  return { scope: match[1] || "/", name: match[2] };
}
