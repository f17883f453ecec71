import { randomBytes } from "node:crypto";
import type { AwsScp } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError } from "./common";
import { validateDeclarativeContent } from "./declarative-syntax";
import {
  DECLARATIVE_EC2,
  findTarget,
  type OrganizationTarget,
  policiesForTarget,
  policyArn,
  policyTypeEnabled,
  policyTypeOf,
  RCP,
  SCP,
} from "./organization-tree";
import { type OrganizationsInput, paged, required, str, validateScpContent } from "./organizations-input";
import { readTags, setInitialTags } from "./organizations-tags";
import { recordCloudTrail } from "./trail";

export { SCP } from "./organization-tree";
/**
 * Policies of one type a root, OU or account may have attached ("Number of policies that you can
 * attach to an entity",
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-policies):
 * 10 SCPs (5 until 15 May 2026) and 5 RCPs, as AWS. AWS allows 10 declarative policies; the sandbox
 * allows 5, stricter than AWS.
 */
export const MAX_PER_TARGET: Readonly<Record<string, number>> = { [SCP]: 10, [RCP]: 5, [DECLARATIVE_EC2]: 5 };
export const RCP_FULL_AWS_ACCESS_ID = "p-RCPFullAWSAccess";

export const POLICY_ACTIONS = new Set([
  "CreatePolicy",
  "UpdatePolicy",
  "DescribePolicy",
  "DeletePolicy",
  "AttachPolicy",
  "DetachPolicy",
  "ListPolicies",
  "ListPoliciesForTarget",
  "ListTargetsForPolicy",
]);

const notEnabled = () =>
  new AwsError(
    "PolicyTypeNotEnabledException",
    "The specified policy type isn't currently enabled in this root.",
  );

/** Declarative policies have their own syntax; SCPs and RCPs the IAM policy grammar. */
function validateContent(content: string, type: string) {
  if (type !== DECLARATIVE_EC2) return validateScpContent(content, type === RCP ? "rcp" : "scp");
  // Declarative policies hold at most 10,000 characters
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-values).
  if (content.length > DECLARATIVE_MAX_CHARS)
    throw new AwsError(
      "ConstraintViolationException",
      `You have exceeded the maximum size of a policy document (${DECLARATIVE_MAX_CHARS} characters).`,
      400,
      { Reason: "POLICY_CONTENT_LIMIT_EXCEEDED" },
    );
  validateDeclarativeContent(content);
}
const DECLARATIVE_MAX_CHARS = 10_000;

/** The service and resource control policies of the organization and where they are attached. */
export function handlePolicyAction(
  store: StateStore,
  caller: AwsCaller,
  action: string,
  input: OrganizationsInput,
): unknown {
  const aws = store.state.aws;
  const summary = (p: AwsScp) => ({
    Id: p.id,
    Arn: policyArn(aws, p),
    Name: p.name,
    Description: p.description,
    Type: policyTypeOf(p),
    AwsManaged: p.awsManaged,
  });
  const full = (p: AwsScp) => ({ Policy: { PolicySummary: summary(p), Content: p.content } });
  const getPolicy = (id: string) => {
    const p = aws.policies.find((x) => x.id === id);
    if (!p)
      throw new AwsError(
        "PolicyNotFoundException",
        "We can't find a policy with the PolicyId that you specified.",
      );
    return p;
  };
  const getTarget = (id: string) => {
    const t = findTarget(aws, id);
    if (!t)
      throw new AwsError(
        "TargetNotFoundException",
        "We can't find a root, OU, account, or email that you specified.",
      );
    return t;
  };
  const audit = (
    requestParameters: Record<string, unknown>,
    responseElements: Record<string, unknown> | null,
  ) =>
    recordCloudTrail(store, {
      eventName: action,
      eventSource: "organizations.amazonaws.com",
      region: "us-east-1",
      principalArn: caller.arn,
      accessKeyId: caller.accessKeyId,
      requestParameters,
      responseElements,
      userAgent: "aws-sdk-js",
    });

  switch (action) {
    case "CreatePolicy": {
      const name = required(input, "Name");
      const content = required(input, "Content");
      const type = required(input, "Type");
      // SCPs, RCPs and declarative policies for EC2 exist in the sandbox; creating one of a type the
      // root has not enabled is refused (stricter than Organizations, which refuses it at AttachPolicy).
      if (![SCP, RCP, DECLARATIVE_EC2].includes(type) || !policyTypeEnabled(aws, type)) throw notEnabled();
      if (name.length > 128)
        throw new AwsError("InvalidInputException", "Name must be at most 128 characters.", 400, {
          Reason: "MAX_LENGTH_EXCEEDED",
        });
      if (aws.policies.some((p) => p.name === name)) {
        throw new AwsError("DuplicatePolicyException", "A policy with the same name already exists.");
      }
      validateContent(content, type);
      const tags = readTags(input);
      const policy: AwsScp = {
        id: `p-${randomBytes(6).toString("hex").slice(0, 8)}`,
        name,
        description: str(input, "Description") ?? "",
        content,
        awsManaged: false,
        ...(type === RCP || type === DECLARATIVE_EC2 ? { type } : {}),
      };
      setInitialTags(aws, policy.id, tags);
      aws.policies.push(policy);
      store.changed();
      audit(
        {
          name,
          description: policy.description,
          type,
          content,
          ...(input.Tags ? { tags: Object.entries(tags).map(([key, value]) => ({ key, value })) } : {}),
        },
        { policy: { policySummary: { id: policy.id, arn: policyArn(aws, policy), name } } },
      );
      return full(policy);
    }
    case "UpdatePolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      if (policy.awsManaged)
        throw new AwsError("AccessDeniedException", "You can't modify an AWS managed policy.");
      const name = str(input, "Name");
      const content = str(input, "Content");
      if (name && name !== policy.name && aws.policies.some((p) => p.name === name)) {
        throw new AwsError("DuplicatePolicyException", "A policy with the same name already exists.");
      }
      if (content !== undefined) validateContent(content, policyTypeOf(policy));
      if (name) policy.name = name;
      if (content !== undefined) policy.content = content;
      const description = str(input, "Description");
      if (description !== undefined) policy.description = description;
      store.changed();
      audit({ policyId: policy.id, name, description, content }, null);
      return full(policy);
    }
    case "DescribePolicy":
      return full(getPolicy(required(input, "PolicyId")));
    case "DeletePolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      if (policy.awsManaged)
        throw new AwsError("AccessDeniedException", "You can't delete an AWS managed policy.");
      if (aws.attachments.some((a) => a.policyId === policy.id)) {
        throw new AwsError(
          "PolicyInUseException",
          "The policy is attached to one or more entities. You must detach it from all roots, OUs, and accounts before performing this operation.",
        );
      }
      aws.policies = aws.policies.filter((p) => p !== policy);
      setInitialTags(aws, policy.id, {});
      store.changed();
      audit({ policyId: policy.id }, null);
      return {};
    }
    case "AttachPolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      const target = getTarget(required(input, "TargetId"));
      if (aws.attachments.some((a) => a.policyId === policy.id && a.targetId === target.id)) {
        throw new AwsError(
          "DuplicatePolicyAttachmentException",
          "The selected policy is already attached to the specified target.",
        );
      }
      const type = policyTypeOf(policy);
      if (!policyTypeEnabled(aws, type)) throw notEnabled();
      const max = MAX_PER_TARGET[type] ?? 0;
      if (policiesForTarget(aws, target.id, type).length >= max) {
        throw new AwsError(
          "ConstraintViolationException",
          `You have attached the maximum number of policies of this type (${max}) to the target.`,
          400,
          { Reason: "MAX_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED" },
        );
      }
      aws.attachments.push({ policyId: policy.id, targetId: target.id });
      store.changed();
      audit({ policyId: policy.id, targetId: target.id }, null);
      return {};
    }
    case "DetachPolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      const target = getTarget(required(input, "TargetId"));
      const index = aws.attachments.findIndex((a) => a.policyId === policy.id && a.targetId === target.id);
      if (index < 0)
        throw new AwsError(
          "PolicyNotAttachedException",
          "The policy isn't attached to the specified target in the specified root.",
        );
      // RCPFullAWSAccess cannot be detached (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html).
      if (policy.id === RCP_FULL_AWS_ACCESS_ID)
        throw new AwsError(
          "ConstraintViolationException",
          "You can't detach the RCPFullAWSAccess policy.",
          400,
          {
            Reason: "MIN_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED",
          },
        );
      if (policyTypeOf(policy) === SCP && policiesForTarget(aws, target.id).length <= 1) {
        throw new AwsError(
          "ConstraintViolationException",
          "You can't detach the last service control policy from a target.",
          400,
          { Reason: "MIN_POLICY_TYPE_ATTACHMENT_LIMIT_EXCEEDED" },
        );
      }
      aws.attachments.splice(index, 1);
      store.changed();
      audit({ policyId: policy.id, targetId: target.id }, null);
      return {};
    }
    case "ListPolicies": {
      const filter = required(input, "Filter");
      return paged(aws.policies.filter((p) => policyTypeOf(p) === filter).map(summary), input, "Policies");
    }
    case "ListPoliciesForTarget": {
      const target = getTarget(required(input, "TargetId"));
      const filter = required(input, "Filter");
      return paged(policiesForTarget(aws, target.id, filter).map(summary), input, "Policies");
    }
    case "ListTargetsForPolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      const targets = aws.attachments
        .filter((a) => a.policyId === policy.id)
        .map((a) => findTarget(aws, a.targetId))
        .filter((t): t is OrganizationTarget => t !== undefined)
        .map((t) => ({ TargetId: t.id, Arn: t.arn, Name: t.name, Type: t.type }));
      return paged(targets, input, "Targets");
    }
  }
  throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
}
