import type { PathPart } from "./catalogue-issue";
import type { Enforcer, TreeNode } from "./definition-schema";

export const AWS_PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9_]*)\}\}/g;
export const AZURE_PARAMETER_REFERENCE = /parameters\('([^']+)'\)/g;
/** Every string (keys included, since IAM condition keys may be templated) inside a value. */
export function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      collectStrings(item, out);
    }
  }
  return out;
}

/** Names of the parameters an atomic node refers to, in the syntax of its enforcer. */
export function referencedParameters(enforcer: Enforcer, atomic: unknown): Set<string> {
  const names = new Set<string>();
  for (const text of collectStrings(atomic)) {
    if (enforcer === "aws_scp" || enforcer === "aws_rcp") {
      for (const match of text.matchAll(AWS_PLACEHOLDER)) names.add(match[1]!);
    } else if (text.startsWith("[") && !text.startsWith("[[")) {
      for (const match of text.matchAll(AZURE_PARAMETER_REFERENCE)) names.add(match[1]!);
    }
  }
  return names;
}

export function walkTree(
  node: TreeNode,
  path: PathPart[],
  visit: (node: TreeNode, path: PathPart[]) => void,
): void {
  visit(node, path);
  if ("junction" in node) {
    node.junction.nodes.forEach((child, index) => {
      walkTree(child, [...path, "junction", "nodes", index], visit);
    });
  }
}
