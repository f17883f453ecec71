import type { AwsState } from "../state/model";
import { AwsError } from "./common";
import { DECLARATIVE_EC2, orgArn, policyTypeEnabled, RCP, SCP } from "./organization-tree";
import { type OrganizationsInput, required } from "./organizations-input";
import { RCP_FULL_AWS_ACCESS_ID } from "./organizations-policies";

export const POLICY_TYPE_ACTIONS = new Set(["EnablePolicyType", "DisablePolicyType"]);

/** RCPFullAWSAccess as AWS manages it (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html). */
const RCP_FULL_AWS_ACCESS_CONTENT = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: "*", Action: "*", Resource: "*" }],
});

/** The root as ListRoots and EnablePolicyType answer it, with the status of each policy type. */
export function rootOf(aws: AwsState) {
  return {
    Id: aws.rootId,
    Arn: orgArn(aws, "root", aws.rootId),
    Name: "Root",
    PolicyTypes: [SCP, ...(aws.enabledPolicyTypes ?? [])].map((Type) => ({ Type, Status: "ENABLED" })),
  };
}

/**
 * EnablePolicyType / DisablePolicyType for resource control policies on the root
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_EnablePolicyType.html). Enabling
 * RCPs attaches the AWS-managed RCPFullAWSAccess to the root, every OU and every account; disabling
 * a type detaches every policy of that type
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_DisablePolicyType.html).
 * SCPs stay enabled in the sandbox.
 */
export function handlePolicyTypeAction(aws: AwsState, action: string, input: OrganizationsInput) {
  const rootId = required(input, "RootId");
  const type = required(input, "PolicyType");
  if (rootId !== aws.rootId)
    throw new AwsError("RootNotFoundException", "We can't find a root with the RootId that you specified.");
  if (type !== RCP && type !== DECLARATIVE_EC2)
    throw new AwsError(
      "InvalidInputException",
      `The sandbox enables and disables ${RCP} and ${DECLARATIVE_EC2} only; ${type} is not supported.`,
      400,
      { Reason: "INVALID_ENUM_POLICY_TYPE" },
    );
  const enabled = policyTypeEnabled(aws, type);
  if (action === "EnablePolicyType") {
    if (enabled)
      throw new AwsError(
        "PolicyTypeAlreadyEnabledException",
        "The specified policy type is already enabled.",
      );
    aws.enabledPolicyTypes = [...(aws.enabledPolicyTypes ?? []), type];
    // Declarative policies have no AWS-managed policy to attach.
    if (type === RCP && !aws.policies.some((p) => p.id === RCP_FULL_AWS_ACCESS_ID))
      aws.policies.push({
        id: RCP_FULL_AWS_ACCESS_ID,
        name: "RCPFullAWSAccess",
        description: "Allows access to every operation",
        content: RCP_FULL_AWS_ACCESS_CONTENT,
        awsManaged: true,
        type: RCP,
      });
    if (type === RCP)
      for (const targetId of [aws.rootId, ...aws.ous.map((o) => o.id), ...aws.accounts.map((a) => a.id)])
        aws.attachments.push({ policyId: RCP_FULL_AWS_ACCESS_ID, targetId });
  } else {
    if (!enabled)
      throw new AwsError(
        "PolicyTypeNotEnabledException",
        "The specified policy type isn't currently enabled in this root.",
      );
    aws.enabledPolicyTypes = (aws.enabledPolicyTypes ?? []).filter((t) => t !== type);
    const ofType = new Set(aws.policies.filter((p) => p.type === type).map((p) => p.id));
    aws.attachments = aws.attachments.filter((a) => !ofType.has(a.policyId));
  }
  return { Root: rootOf(aws) };
}
