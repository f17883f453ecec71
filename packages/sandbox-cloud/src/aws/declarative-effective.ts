import {
  type EffectiveDeclarative,
  mergeDeclarative,
} from "@palisade/policy-engine/evaluators/declarative/declarative-merge";
import type { AwsState } from "../state/model";
import { DECLARATIVE_EC2, policiesForTarget, targetPath } from "./organization-tree";

export {
  DEFAULT_EXCEPTION_MESSAGE,
  type EffectiveDeclarative,
  effectiveDocument,
  exceptionMessage,
} from "@palisade/policy-engine/evaluators/declarative/declarative-merge";

/**
 * The effective declarative policy of an account: the policies attached to the root, each OU down
 * to the account and the account itself, merged by the inheritance operators
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_inheritance_mgmt.html).
 */
export function effectiveDeclarative(aws: AwsState, accountId: string): EffectiveDeclarative {
  if (!(aws.enabledPolicyTypes ?? []).includes(DECLARATIVE_EC2)) return new Map();
  return mergeDeclarative(
    targetPath(aws, accountId).map((targetId) =>
      policiesForTarget(aws, targetId, DECLARATIVE_EC2).map((policy) => JSON.parse(policy.content)),
    ),
  );
}
