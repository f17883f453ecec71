import type { AwsState } from "../state/model";
import { DECLARATIVE_EC2, policiesForTarget, targetPath } from "./organization-tree";

/**
 * The effective declarative policy of an account: the policies attached to the root, each OU down
 * to the account and the account itself, merged by the inheritance operators
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_inheritance_mgmt.html):
 * a child's `@@assign` replaces its parent's value unless a parent limited the attribute with
 * `@@operators_allowed_for_child_policies: ["@@none"]`. Values are keyed by their dotted path below
 * `ec2_attributes`, e.g. `instance_metadata_defaults.http_tokens`.
 */
export type EffectiveDeclarative = Map<string, unknown>;

/** The message EC2 answers when no `exception_message` is set (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html). */
export const DEFAULT_EXCEPTION_MESSAGE = "This action is denied due to an organizational policy in effect.";

function walk(
  node: unknown,
  path: string,
  level: number,
  out: EffectiveDeclarative,
  locked: Map<string, number>,
) {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return;
  // A path locked at an earlier level keeps the value it had there.
  const isLocked = [...locked].some(
    ([p, at]) => at < level && (path === p || path.startsWith(`${p}.`) || p === ""),
  );
  if (isLocked) return;
  const record = node as Record<string, unknown>;
  const ops = record["@@operators_allowed_for_child_policies"];
  if (Array.isArray(ops) && !ops.includes("@@assign")) locked.set(path, level);
  if ("@@assign" in record) out.set(path, record["@@assign"]);
  // A list attribute (allowed_image_providers) may be given with @@append: the values add up.
  const appended = record["@@append"];
  if (Array.isArray(appended)) {
    const prior = out.get(path);
    out.set(path, [...(Array.isArray(prior) ? prior : []), ...appended]);
  }
  for (const [key, child] of Object.entries(record)) {
    if (key.startsWith("@@")) continue;
    walk(child, path ? `${path}.${key}` : key, level, out, locked);
  }
}

export function effectiveDeclarative(aws: AwsState, accountId: string): EffectiveDeclarative {
  const out: EffectiveDeclarative = new Map();
  if (!(aws.enabledPolicyTypes ?? []).includes(DECLARATIVE_EC2)) return out;
  const locked = new Map<string, number>();
  targetPath(aws, accountId).forEach((targetId, level) => {
    for (const policy of policiesForTarget(aws, targetId, DECLARATIVE_EC2)) {
      const doc = JSON.parse(policy.content) as { ec2_attributes?: unknown };
      walk(doc.ec2_attributes, "", level, out, locked);
    }
  });
  return out;
}

/** The effective policy as DescribeEffectivePolicy answers its content: the document with only `@@assign` values. */
export function effectiveDocument(effective: EffectiveDeclarative): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of effective) {
    let node = root;
    const parts = path.split(".");
    for (const part of parts.slice(0, -1)) {
      node[part] = (node[part] as Record<string, unknown> | undefined) ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts.at(-1)!] = value;
  }
  return { ec2_attributes: root };
}

export function exceptionMessage(effective: EffectiveDeclarative): string {
  const message = effective.get("exception_message");
  return typeof message === "string" && message.length > 0 ? message : DEFAULT_EXCEPTION_MESSAGE;
}
