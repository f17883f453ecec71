import {
  evaluateOrganizationPolicies,
  type OrganizationDecision,
} from "@palisade/policy-engine/evaluators/scp/evaluate-rcp";
import type { ContextValue } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { apiCallOf, responseElementsOf } from "../aws/api-calls";
import { AwsError } from "../aws/common";
import { callerArnOf } from "../aws/identity";
import { type Denial, scpDenial } from "../aws/service-errors";
import { recordCloudTrail } from "../aws/trail";
import type { AwsAccount, AwsResource, AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, principalContext } from "./aws-caller";
import { rcpLevels, resourceAccountOf, scpLevels } from "./organization-levels";

/** One resource a call is authorised on, with the condition keys that resource type carries. */
export interface AuthorizedResource {
  arn: string;
  context?: Record<string, ContextValue>;
}

/** One AWS API call as IAM authorises it and CloudTrail records it. */
export interface AwsRequest {
  caller: AwsCaller;
  account: AwsAccount;
  /** The IAM action, `service:Operation`, as the service spells it. */
  action: string;
  /** The API's name where it differs from the action's (DeletePublicAccessBlock is authorised as s3:PutBucketPublicAccessBlock). */
  eventName?: string;
  /**
   * Every resource the call is authorised on; the call is denied when any of them is
   * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html).
   * The first is the one the call is recorded for.
   */
  resources: AuthorizedResource[];
  region: string;
  /** The request's own condition keys; the principal's and the global ones are added. */
  context: Record<string, ContextValue>;
  accessKeyId?: string;
  userAgent?: string;
  /** The API's parameters as CloudTrail writes them, when the caller knows them better than the keys do. */
  requestParameters?: Record<string, unknown> | null;
}

export interface PolicyRef {
  id: string;
  arn: string;
  name: string;
  sid?: string;
}

export type AwsRequestOutcome<T> =
  | { allowed: true; result: T; eventId?: string }
  | { allowed: false; denial: Denial; policy?: PolicyRef; eventId?: string };

/** What an allowed call does: its result, and what it created or changed (for `responseElements`). */
export interface Effect<T> {
  result: T;
  changed?: AwsResource;
  responseElements?: Record<string, unknown> | null;
}

/**
 * The keys of the resource's owner (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-resourceaccount):
 * its account, and its organisation when the account is a member, so a policy can compare
 * aws:PrincipalOrgID with `${aws:ResourceOrgID}`.
 */
export function resourceContext(aws: AwsState, owner: string): Record<string, string> {
  const member = aws.accounts.some((a) => a.id === owner);
  return { "aws:ResourceAccount": owner, ...(member ? { "aws:ResourceOrgID": aws.organizationId } : {}) };
}

/** Context keys every request carries (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html). */
export function globalContext(store: StateStore, caller: AwsCaller, region: string) {
  const now = store.now();
  return {
    ...principalContext(store.state.aws, caller),
    "aws:RequestedRegion": region,
    "aws:CurrentTime": now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    "aws:EpochTime": String(Math.floor(now.getTime() / 1000)),
    "aws:SecureTransport": "true",
    "aws:ViaAWSService": "false",
  } satisfies Record<string, ContextValue>;
}

/**
 * Authorises a call by the SCPs in force, performs it when allowed, and records it in CloudTrail
 * as the service would: with its `responseElements` when it succeeds, with `errorCode` and
 * `errorMessage` when the SCPs deny it or the service refuses it (an AwsError thrown by `perform`,
 * which is rethrown after it is recorded).
 */
export function performAws<T>(
  store: StateStore,
  request: AwsRequest,
  perform: () => Effect<T>,
): AwsRequestOutcome<T> {
  const aws = store.state.aws;
  const { caller, account, action, region } = request;
  const context = { ...globalContext(store, caller, region), ...request.context };
  // SCPs are those of the caller's account (none for a principal outside the organisation).
  const scps = scpLevels(aws, caller.accountId);
  // An explicit deny on any resource decides; otherwise the first resource no SCP or RCP allows.
  // RCPs are those of the account owning each resource, whoever the caller is.
  let decision: OrganizationDecision = { decision: "allow" };
  let denied: string | undefined;
  for (const resource of request.resources) {
    const owner = resourceAccountOf(aws, resource.arn, account.id);
    const rcps = rcpLevels(aws, owner, caller.principalArn, action);
    if (scps.length === 0 && rcps.length === 0) continue;
    const result = evaluateOrganizationPolicies(
      {
        action,
        resource: resource.arn,
        principalArn: caller.principalArn,
        context: { ...context, ...resourceContext(aws, owner), ...(resource.context ?? {}) },
      },
      scps,
      rcps,
    );
    if (result.decision === "allow") continue;
    if (denied === undefined || result.decision === "explicit_deny") {
      decision = result;
      denied = resource.arn;
    }
    if (result.decision === "explicit_deny") break;
  }
  const recorded = request.resources[0]?.arn ?? "*";
  const allContext = Object.assign({}, context, ...request.resources.map((r) => r.context ?? {}));
  const call = apiCallOf({ action, resource: recorded, accountId: account.id, region, context: allContext });
  const record = (more: {
    responseElements?: Record<string, unknown> | null;
    errorCode?: string;
    errorMessage?: string;
  }) =>
    call.managementEvent
      ? recordCloudTrail(store, {
          eventName: request.eventName ?? call.eventName,
          eventSource: call.eventSource,
          region: call.region,
          principalArn: caller.arn,
          accessKeyId: request.accessKeyId,
          recipientAccountId: account.id,
          requestParameters:
            request.requestParameters !== undefined ? request.requestParameters : call.requestParameters,
          resources: call.resources,
          readOnly: call.readOnly,
          userAgent: request.userAgent,
          ...more,
        }).eventID
      : undefined;

  if (denied !== undefined) {
    const policy = decision.decision === "explicit_deny" ? decision.policy : undefined;
    const denial = scpDenial({
      callerArn: callerArnOf(caller.arn),
      action,
      resource: denied,
      policyArn: policy?.arn,
      policyType: decision.policyType,
    });
    const eventId = record({ errorCode: denial.recordedCode, errorMessage: denial.message });
    const ref = decision.policy
      ? { id: decision.policy.id, arn: decision.policy.arn, name: decision.policy.name, sid: decision.sid }
      : undefined;
    return { allowed: false, denial, policy: ref, eventId };
  }
  let effect: Effect<T>;
  try {
    effect = perform();
  } catch (err) {
    // EC2 records its client errors as `Client.<Code>`.
    if (err instanceof AwsError)
      record({
        errorCode: `${action.startsWith("ec2:") ? "Client." : ""}${err.code}`,
        errorMessage: err.message,
      });
    throw err;
  }
  const eventId = record({
    responseElements:
      effect.responseElements !== undefined
        ? effect.responseElements
        : responseElementsOf(call.eventName, effect.changed),
  });
  store.changed();
  return { allowed: true, result: effect.result, eventId };
}
