import { randomBytes } from "node:crypto";
import { validateScpDocument } from "@palisade/policy-engine/evaluators/scp/validate-scp-document";
import type { AwsScp, AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError, page } from "./common";
import { recordCloudTrail } from "./trail";

export const SCP_MAX_CHARS = 5120;
export const SCP_MAX_PER_TARGET = 5;
const SCP = "SERVICE_CONTROL_POLICY";
const PAGE_MAX = 20;

type Input = Record<string, unknown>;
type Target = { id: string; arn: string; name: string; type: "ROOT" | "ORGANIZATIONAL_UNIT" | "ACCOUNT" };

export function policyArn(aws: AwsState, policy: Pick<AwsScp, "id" | "awsManaged">): string {
  return policy.awsManaged
    ? `arn:aws:organizations::aws:policy/service_control_policy/${policy.id}`
    : `arn:aws:organizations::${aws.managementAccountId}:policy/${aws.organizationId}/service_control_policy/${policy.id}`;
}

function orgArn(aws: AwsState, kind: string, id: string) {
  return `arn:aws:organizations::${aws.managementAccountId}:${kind}/${aws.organizationId}/${id}`;
}

export function findTarget(aws: AwsState, id: string): Target | undefined {
  if (id === aws.rootId) return { id, arn: orgArn(aws, "root", id), name: "Root", type: "ROOT" };
  const ou = aws.ous.find((o) => o.id === id);
  if (ou) return { id, arn: orgArn(aws, "ou", id), name: ou.name, type: "ORGANIZATIONAL_UNIT" };
  const account = aws.accounts.find((a) => a.id === id);
  if (account) return { id, arn: orgArn(aws, "account", id), name: account.name, type: "ACCOUNT" };
  return undefined;
}

/** Root first, then each OU down to the account: the levels SCP evaluation walks. */
export function targetPath(aws: AwsState, accountId: string): string[] {
  const account = aws.accounts.find((a) => a.id === accountId);
  if (!account) return [];
  const path = [accountId];
  let parent = account.parentId;
  while (parent !== aws.rootId) {
    path.unshift(parent);
    parent = aws.ous.find((o) => o.id === parent)?.parentId ?? aws.rootId;
  }
  path.unshift(aws.rootId);
  return path;
}

export function policiesForTarget(aws: AwsState, targetId: string): AwsScp[] {
  return aws.attachments
    .filter((a) => a.targetId === targetId)
    .map((a) => aws.policies.find((p) => p.id === a.policyId))
    .filter((p): p is AwsScp => p !== undefined);
}

const str = (input: Input, key: string): string | undefined =>
  typeof input[key] === "string" ? (input[key] as string) : undefined;

function required(input: Input, key: string): string {
  const v = str(input, key);
  if (!v)
    throw new AwsError(
      "InvalidInputException",
      `You provided a value that does not match the required pattern for ${key}.`,
      400,
      { Reason: "INPUT_REQUIRED" },
    );
  return v;
}

function paging(input: Input) {
  return {
    NextToken: str(input, "NextToken"),
    MaxResults: typeof input.MaxResults === "number" ? input.MaxResults : undefined,
  };
}

function paged<T>(items: T[], input: Input, key: string) {
  const p = page(items, paging(input), { max: PAGE_MAX, invalidCode: "InvalidInputException" });
  return p.nextToken ? { [key]: p.items, NextToken: p.nextToken } : { [key]: p.items };
}

function validateContent(content: string) {
  if (content.length > SCP_MAX_CHARS) {
    throw new AwsError(
      "ConstraintViolationException",
      `You have exceeded the maximum size of a policy document (${SCP_MAX_CHARS} characters).`,
      400,
      { Reason: "POLICY_CONTENT_LIMIT_EXCEEDED" },
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    throw new AwsError("MalformedPolicyDocumentException", "The provided policy document is not valid JSON.");
  }
  const result = validateScpDocument(doc);
  if (!result.valid) {
    const first = result.errors[0];
    throw new AwsError(
      "MalformedPolicyDocumentException",
      `The provided policy document does not meet the requirements of the specified policy type. ${first ? `${first.path}: ${first.message}` : ""}`.trim(),
    );
  }
}

const ORGANIZATIONS_ACTIONS = new Set([
  "DescribeOrganization",
  "ListRoots",
  "ListOrganizationalUnitsForParent",
  "ListAccounts",
  "ListAccountsForParent",
  "ListChildren",
  "CreatePolicy",
  "UpdatePolicy",
  "DescribePolicy",
  "DeletePolicy",
  "AttachPolicy",
  "DetachPolicy",
  "ListPolicies",
  "ListPoliciesForTarget",
  "ListTargetsForPolicy",
  "DescribeOrganizationalUnit",
  "DescribeAccount",
  "ListParents",
]);

export function handleOrganizations(
  store: StateStore,
  caller: AwsCaller,
  action: string,
  input: Input,
): unknown {
  const aws = store.state.aws;
  if (!ORGANIZATIONS_ACTIONS.has(action)) {
    throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
  }
  if (caller.accountId !== aws.managementAccountId) {
    throw new AwsError("AccessDeniedException", "You don't have permissions to access this resource.");
  }
  const summary = (p: AwsScp) => ({
    Id: p.id,
    Arn: policyArn(aws, p),
    Name: p.name,
    Description: p.description,
    Type: SCP,
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
  const getParent = (id: string) => {
    if (id !== aws.rootId && !aws.ous.some((o) => o.id === id)) {
      throw new AwsError(
        "ParentNotFoundException",
        "We can't find a root or OU with the ParentId that you specified.",
      );
    }
    return id;
  };
  const account = (a: AwsState["accounts"][number]) => ({
    Id: a.id,
    Arn: orgArn(aws, "account", a.id),
    Email: a.email,
    Name: a.name,
    Status: "ACTIVE",
    State: "ACTIVE",
    JoinedMethod: a.joinedMethod,
    JoinedTimestamp: new Date(a.joinedAt).getTime() / 1000,
  });
  const ou = (o: AwsState["ous"][number]) => ({ Id: o.id, Arn: orgArn(aws, "ou", o.id), Name: o.name });
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
    case "DescribeOrganization":
      return {
        Organization: {
          Id: aws.organizationId,
          Arn: `arn:aws:organizations::${aws.managementAccountId}:organization/${aws.organizationId}`,
          FeatureSet: "ALL",
          MasterAccountArn: orgArn(aws, "account", aws.managementAccountId),
          MasterAccountId: aws.managementAccountId,
          MasterAccountEmail: aws.managementAccountEmail,
          AvailablePolicyTypes: [{ Type: SCP, Status: "ENABLED" }],
        },
      };
    case "ListRoots":
      return paged(
        [
          {
            Id: aws.rootId,
            Arn: orgArn(aws, "root", aws.rootId),
            Name: "Root",
            PolicyTypes: [{ Type: SCP, Status: "ENABLED" }],
          },
        ],
        input,
        "Roots",
      );
    case "ListOrganizationalUnitsForParent": {
      const parent = getParent(required(input, "ParentId"));
      return paged(aws.ous.filter((o) => o.parentId === parent).map(ou), input, "OrganizationalUnits");
    }
    case "DescribeOrganizationalUnit": {
      const o = aws.ous.find((x) => x.id === required(input, "OrganizationalUnitId"));
      if (!o)
        throw new AwsError(
          "OrganizationalUnitNotFoundException",
          "We can't find an OU with the OrganizationalUnitId that you specified.",
        );
      return { OrganizationalUnit: ou(o) };
    }
    case "ListAccounts":
      return paged(aws.accounts.map(account), input, "Accounts");
    case "DescribeAccount": {
      const a = aws.accounts.find((x) => x.id === required(input, "AccountId"));
      if (!a)
        throw new AwsError(
          "AccountNotFoundException",
          "We can't find an AWS account with the AccountId that you specified.",
        );
      return { Account: account(a) };
    }
    case "ListAccountsForParent": {
      const parent = getParent(required(input, "ParentId"));
      return paged(aws.accounts.filter((a) => a.parentId === parent).map(account), input, "Accounts");
    }
    case "ListParents": {
      const id = required(input, "ChildId");
      const parentId =
        aws.accounts.find((a) => a.id === id)?.parentId ?? aws.ous.find((o) => o.id === id)?.parentId;
      if (!parentId)
        throw new AwsError(
          "ChildNotFoundException",
          "We can't find an organizational unit (OU) or AWS account with the ChildId that you specified.",
        );
      return { Parents: [{ Id: parentId, Type: parentId === aws.rootId ? "ROOT" : "ORGANIZATIONAL_UNIT" }] };
    }
    case "ListChildren": {
      const parent = getParent(required(input, "ParentId"));
      const type = required(input, "ChildType");
      const children =
        type === "ACCOUNT"
          ? aws.accounts.filter((a) => a.parentId === parent).map((a) => ({ Id: a.id, Type: "ACCOUNT" }))
          : type === "ORGANIZATIONAL_UNIT"
            ? aws.ous
                .filter((o) => o.parentId === parent)
                .map((o) => ({ Id: o.id, Type: "ORGANIZATIONAL_UNIT" }))
            : undefined;
      if (!children)
        throw new AwsError(
          "InvalidInputException",
          "ChildType must be ACCOUNT or ORGANIZATIONAL_UNIT.",
          400,
          { Reason: "INVALID_ENUM" },
        );
      return paged(children, input, "Children");
    }
    case "CreatePolicy": {
      const name = required(input, "Name");
      const content = required(input, "Content");
      const type = required(input, "Type");
      if (type !== SCP)
        throw new AwsError(
          "PolicyTypeNotEnabledException",
          "This policy type is not enabled in the sandbox organization.",
        );
      if (name.length > 128)
        throw new AwsError("InvalidInputException", "Name must be at most 128 characters.", 400, {
          Reason: "MAX_LENGTH_EXCEEDED",
        });
      if (aws.policies.some((p) => p.name === name)) {
        throw new AwsError("DuplicatePolicyException", "A policy with the same name already exists.");
      }
      validateContent(content);
      const policy: AwsScp = {
        id: `p-${randomBytes(6).toString("hex").slice(0, 8)}`,
        name,
        description: str(input, "Description") ?? "",
        content,
        awsManaged: false,
      };
      aws.policies.push(policy);
      store.changed();
      audit(
        { name, description: policy.description, type, content },
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
      if (content !== undefined) validateContent(content);
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
      if (policiesForTarget(aws, target.id).length >= SCP_MAX_PER_TARGET) {
        throw new AwsError(
          "ConstraintViolationException",
          `You have attached the maximum number of policies of this type (${SCP_MAX_PER_TARGET}) to the target.`,
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
      if (policiesForTarget(aws, target.id).length <= 1) {
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
      return paged(filter === SCP ? aws.policies.map(summary) : [], input, "Policies");
    }
    case "ListPoliciesForTarget": {
      const target = getTarget(required(input, "TargetId"));
      const filter = required(input, "Filter");
      return paged(filter === SCP ? policiesForTarget(aws, target.id).map(summary) : [], input, "Policies");
    }
    case "ListTargetsForPolicy": {
      const policy = getPolicy(required(input, "PolicyId"));
      const targets = aws.attachments
        .filter((a) => a.policyId === policy.id)
        .map((a) => findTarget(aws, a.targetId))
        .filter((t): t is Target => t !== undefined)
        .map((t) => ({ TargetId: t.id, Arn: t.arn, Name: t.name, Type: t.type }));
      return paged(targets, input, "Targets");
    }
  }
  throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
}
