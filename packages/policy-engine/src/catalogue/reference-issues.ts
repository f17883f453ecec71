import type { Issue } from "./catalogue-issue";
import type { Definition } from "./definition-schema";
import { referencedParameters, treeOf, walkTree } from "./definition-tree";

export function referenceIssues(definition: Definition, bySlug: ReadonlyMap<string, Definition>): Issue[] {
  const issues: Issue[] = [];
  walkTree(treeOf(definition), ["tree"], (node, path) => {
    if (!("policy_reference" in node)) return;
    const target = bySlug.get(node.policy_reference);
    if (!target) {
      issues.push({
        path: [...path, "policy_reference"],
        message: `no definition with slug ${node.policy_reference}`,
      });
      return;
    }
    if (target.enforcer !== definition.enforcer) {
      issues.push({
        path: [...path, "policy_reference"],
        message: `${node.policy_reference} is enforced by ${target.enforcer}, not ${definition.enforcer}`,
      });
      return;
    }
    // The bundle only carries the referring definition's parameters, so the inlined tree must use
    // parameters that definition declares with the same type.
    walkTree(treeOf(target), [], (inner) => {
      if (!("atomic" in inner)) return;
      for (const name of referencedParameters(target.enforcer, inner.atomic)) {
        const own = definition.parameter_definitions.find((p) => p.name === name);
        const theirs = target.parameter_definitions.find((p) => p.name === name);
        if (!own || own.type !== theirs?.type) {
          issues.push({
            path: [...path, "policy_reference"],
            message: `${node.policy_reference} uses parameter ${name}; declare it here with type ${theirs?.type}`,
          });
        }
      }
    });
  });
  return issues;
}

/** Parameters used anywhere in the tree, following references (each definition visited once). */
function usedParameters(definition: Definition, bySlug: ReadonlyMap<string, Definition>): Set<string> {
  const used = new Set<string>();
  const seen = new Set<string>();
  const visit = (current: Definition) => {
    if (seen.has(current.slug)) return;
    seen.add(current.slug);
    walkTree(treeOf(current), [], (node) => {
      if ("atomic" in node)
        for (const name of referencedParameters(current.enforcer, node.atomic)) used.add(name);
      else if ("policy_reference" in node) {
        const target = bySlug.get(node.policy_reference);
        if (target) visit(target);
      }
    });
  };
  visit(definition);
  return used;
}

export function unusedParameterIssues(
  definition: Definition,
  bySlug: ReadonlyMap<string, Definition>,
): Issue[] {
  const used = usedParameters(definition, bySlug);
  return definition.parameter_definitions.flatMap((parameter, index) =>
    used.has(parameter.name)
      ? []
      : [
          {
            path: ["parameter_definitions", index, "name"],
            message: `${parameter.name} is declared but the tree never uses it`,
          },
        ],
  );
}

export function findCycle(start: Definition, bySlug: ReadonlyMap<string, Definition>): string[] | undefined {
  const stack: string[] = [];
  const visit = (definition: Definition): string[] | undefined => {
    if (stack.includes(definition.slug))
      return [...stack.slice(stack.indexOf(definition.slug)), definition.slug];
    stack.push(definition.slug);
    const refs: string[] = [];
    walkTree(treeOf(definition), [], (node) => {
      if ("policy_reference" in node) refs.push(node.policy_reference);
    });
    for (const ref of refs) {
      const target = bySlug.get(ref);
      if (!target) continue;
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    return undefined;
  };
  return visit(start);
}
