import { CompileError } from "../compile-input";

/**
 * Where a declarative policy is attached so that it reaches every account under `scopes` except
 * `exempt` ones. Declarative policies are inherited: an account's effective policy merges those
 * attached to the root, each OU above it and the account itself
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_inheritance_mgmt.html),
 * and a child policy can only override a value, not remove it. So an exempted account must not sit
 * under any target: each scope that contains one is replaced by its children, recursively, down to
 * the exempted account, which is left out. Every other account still inherits exactly one copy.
 *
 * `parentOf` maps each OU and account id to its parent (the synced hierarchy).
 */
export function declarativeTargets(
  scopes: readonly string[],
  exempt: readonly string[],
  parentOf: Readonly<Record<string, string>>,
): string[] {
  const exemptSet = new Set(exempt);
  const ancestors = (id: string): string[] => {
    const out: string[] = [];
    for (let at = parentOf[id], guard = 0; at !== undefined && guard < 20; at = parentOf[at], guard++)
      out.push(at);
    return out;
  };
  // Every node above an exempted account must be split into its children.
  const split = new Set(exempt.flatMap(ancestors));
  const children = (id: string) =>
    Object.entries(parentOf)
      .filter(([, parent]) => parent === id)
      .map(([child]) => child)
      .sort();
  const out: string[] = [];
  const place = (id: string) => {
    if (exemptSet.has(id)) return;
    if (!split.has(id)) {
      out.push(id);
      return;
    }
    for (const child of children(id)) place(child);
  };
  for (const id of exempt)
    if (parentOf[id] === undefined && !scopes.includes(id))
      throw new CompileError(
        "CLOUD_INVALID_SCOPE",
        `${id} is not in the synced hierarchy, so it cannot be left out of a declarative policy's targets`,
      );
  for (const scope of scopes) place(scope);
  return [...new Set(out)];
}
