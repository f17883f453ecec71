import { evaluateOrganizationPolicies } from "@palisade/policy-engine/evaluators/scp/evaluate-rcp";
import { callerArnOf } from "../aws/identity";
import { type Denial, scpDenial } from "../aws/service-errors";
import type { StateStore } from "../state/store";
import { type AwsCaller, resolveCaller } from "./aws-caller";
import { globalContext, resourceContext } from "./aws-request";
import { rcpLevels, resourceAccountOf } from "./organization-levels";

/**
 * The denial the resource's RCPs give a call, if any, for a service the sandbox serves outside
 * `performAws` (STS AssumeRole on a role of a member account;
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html lists
 * STS). `callerArn` is the signed identity; a caller the sandbox cannot resolve is evaluated with
 * its ARN alone, without organisation keys.
 */
export function rcpDenial(
  store: StateStore,
  input: {
    callerArn: string;
    callerAccountId: string;
    action: string;
    resource: string;
    region: string;
    secure: boolean;
  },
): Denial | undefined {
  const aws = store.state.aws;
  const account = aws.accounts.find((a) => a.id === input.callerAccountId);
  const caller: AwsCaller = (account && resolveCaller(aws, input.callerArn, account)) || {
    arn: input.callerArn,
    principalArn: input.callerArn,
    accountId: input.callerAccountId,
    kind: "service",
  };
  const owner = resourceAccountOf(aws, input.resource, input.callerAccountId);
  const levels = rcpLevels(aws, owner, caller.principalArn, input.action);
  if (levels.length === 0) return undefined;
  const context = caller.kind === "service" && !account ? {} : globalContext(store, caller, input.region);
  const decision = evaluateOrganizationPolicies(
    {
      action: input.action,
      resource: input.resource,
      principalArn: caller.principalArn,
      context: { ...context, ...resourceContext(aws, owner), "aws:SecureTransport": String(input.secure) },
    },
    [],
    levels,
  );
  if (decision.decision === "allow") return undefined;
  return scpDenial({
    callerArn: callerArnOf(input.callerArn),
    action: input.action,
    resource: input.resource,
    policyArn: decision.decision === "explicit_deny" ? decision.policy?.arn : undefined,
    policyType: "RESOURCE_CONTROL_POLICY",
  });
}
