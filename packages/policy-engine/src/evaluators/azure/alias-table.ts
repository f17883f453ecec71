/**
 * Azure Policy aliases the evaluator can resolve: resource type -> alias name -> path of the
 * property in the ARM resource JSON, dot-separated, `[*]` after a name that holds an array, e.g.
 * `"Microsoft.Storage/storageAccounts": { "Microsoft.Storage/storageAccounts/networkAcls.ipRules[*].value":
 * "properties.networkAcls.ipRules[*].value" }`. Type and alias names compare case-insensitively.
 */
export type AliasTable = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface PathSegment {
  name: string;
  /** The segment is followed by `[*]`: its value is an array whose members are visited one by one. */
  each: boolean;
}

export interface PropertyPath {
  segments: PathSegment[];
  /** Lower-case canonical text, used to tell whether one path lies inside another. */
  key: string;
  /** The path selects a collection of values (it goes through at least one `[*]`). */
  collection: boolean;
}

export function parsePropertyPath(path: string): PropertyPath {
  const segments: PathSegment[] = [];
  for (const piece of path.split(".")) {
    if (piece === "") continue;
    const each = piece.endsWith("[*]");
    segments.push({ name: each ? piece.slice(0, -3) : piece, each });
  }
  return {
    segments,
    key: segments.map((s) => `${s.name.toLowerCase()}${s.each ? "[*]" : ""}`).join("."),
    collection: segments.some((s) => s.each),
  };
}

export type AliasIndex = ReadonlyMap<string, ReadonlyMap<string, PropertyPath>>;

const indexes = new WeakMap<AliasTable, AliasIndex>();

export function indexAliasTable(table: AliasTable): AliasIndex {
  let index = indexes.get(table);
  if (!index) {
    const built = new Map<string, Map<string, PropertyPath>>();
    for (const [resourceType, aliases] of Object.entries(table)) {
      const forType = built.get(resourceType.toLowerCase()) ?? new Map<string, PropertyPath>();
      for (const [alias, path] of Object.entries(aliases))
        forType.set(alias.toLowerCase(), parsePropertyPath(path));
      built.set(resourceType.toLowerCase(), forType);
    }
    index = built;
    indexes.set(table, index);
  }
  return index;
}
