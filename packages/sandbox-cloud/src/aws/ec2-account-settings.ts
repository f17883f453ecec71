import { type Effect, performAws } from "../enforce/aws-request";
import type { Ec2AccountSettings } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { type EffectiveDeclarative, effectiveDeclarative, exceptionMessage } from "./declarative-effective";
import { scpDenialError } from "./service-errors";
import type { WireCaller } from "./wire-caller";

/**
 * What the EC2 account-level settings governed by declarative policies share: the account's own
 * value per Region, the effective declarative policy that overrides it, and the refusal EC2 answers.
 *
 * "Account administrators will not be able to modify the value of the service attribute at the
 * individual account level" and "any noncompliant actions will fail"
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html);
 * each Get/Describe call then answers `managedBy` `declarative-policy`, "managed by a declarative
 * policy and can't be modified by the account" (e.g.
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetSerialConsoleAccessStatus.html).
 */

/** The settings an account set itself in a Region (created on first write). */
export function accountSettings(store: StateStore, who: WireCaller): Ec2AccountSettings {
  const aws = store.state.aws;
  aws.ec2Settings ??= {};
  const key = `${who.account.id}/${who.signed.region}`;
  aws.ec2Settings[key] ??= {};
  return aws.ec2Settings[key];
}

/** The value a declarative policy assigns at `path` below `ec2_attributes`, as a string. */
export function policyValue(effective: EffectiveDeclarative, path: string): string | undefined {
  const v = effective.get(path);
  return v === undefined ? undefined : String(v);
}

/**
 * The refusal of a call a declarative policy does not allow. The documentation names no error code
 * for these; the sandbox answers EC2's `UnauthorizedOperation`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html) with the policy's
 * `exception_message` (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html),
 * as it does for RunInstances, and says which attribute refused it.
 */
export function declarativeDenial(effective: EffectiveDeclarative, what: string): AwsError {
  return new AwsError(
    "UnauthorizedOperation",
    `${exceptionMessage(effective)} (declarative policy: ${what})`,
    403,
  );
}

/**
 * One EC2 call on an account-level setting: authorised by the SCPs in force, performed with the
 * account's effective declarative policy, recorded in CloudTrail (a refusal thrown by `perform`
 * is recorded with its `Client.` error code and message, then rethrown).
 */
export function ec2SettingCall<T>(
  store: StateStore,
  who: WireCaller,
  action: string,
  requestParameters: Record<string, unknown> | null,
  params: URLSearchParams,
  perform: (effective: EffectiveDeclarative, dryRun: boolean) => Effect<T>,
  resources: { arn: string }[] = [{ arn: "*" }],
): T {
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account: who.account,
      action: `ec2:${action}`,
      resources,
      region: who.signed.region,
      context: {},
      requestParameters,
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
    },
    () => perform(effectiveDeclarative(store.state.aws, who.account.id), params.get("DryRun") === "true"),
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  return outcome.result;
}

/** `managedBy` and, where the API has it, the message a managed setting carries. */
export const managedBy = (managed: boolean) => (managed ? "declarative-policy" : "account");

/** What EC2 answers a DryRun that would have succeeded; handlers throw it after their checks, before any change. */
export function dryRunSucceeded(): AwsError {
  return new AwsError("DryRunOperation", "Request would have succeeded, but DryRun flag is set.", 412);
}

/** EC2's refusal of a parameter value it does not accept. */
export const invalidParameter = (message: string) => new AwsError("InvalidParameterValue", message);
