import type { AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError } from "./common";
import { effectiveDeclarative, effectiveDocument } from "./declarative-effective";
import { DECLARATIVE_EC2, orgArn } from "./organization-tree";
import {
  delegationAllows,
  handleResourcePolicyAction,
  RESOURCE_POLICY_ACTIONS,
} from "./organizations-delegation";
import { type OrganizationsInput, paged, required } from "./organizations-input";
import { handlePolicyAction, POLICY_ACTIONS, SCP } from "./organizations-policies";
import { handlePolicyTypeAction, POLICY_TYPE_ACTIONS, rootOf } from "./organizations-policy-types";
import { handleTagAction, TAG_ACTIONS } from "./organizations-tags";
import { recordCloudTrail } from "./trail";

const ORGANIZATIONS_ACTIONS = new Set([
  "DescribeOrganization",
  "ListRoots",
  "ListOrganizationalUnitsForParent",
  "ListAccounts",
  "ListAccountsForParent",
  "ListChildren",
  "DescribeOrganizationalUnit",
  "DescribeAccount",
  "ListParents",
  "DescribeEffectivePolicy",
]);

/**
 * An Organizations call; a refused or failed one is recorded with its error code, as CloudTrail
 * records failed calls (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html,
 * errorCode), its request parameters being the API's input with lowerCamelCase names.
 */
export function handleOrganizations(
  store: StateStore,
  caller: AwsCaller,
  action: string,
  input: OrganizationsInput,
): unknown {
  try {
    return serveOrganizations(store, caller, action, input);
  } catch (err) {
    if (err instanceof AwsError && err.code !== "UnknownOperationException") {
      recordCloudTrail(store, {
        eventName: action,
        eventSource: "organizations.amazonaws.com",
        region: "us-east-1",
        principalArn: caller.arn,
        accessKeyId: caller.accessKeyId,
        requestParameters: Object.fromEntries(
          Object.entries(input).map(([k, v]) => [`${k[0]?.toLowerCase() ?? ""}${k.slice(1)}`, v]),
        ),
        readOnly:
          !/^(Create|Update|Delete|Attach|Detach|Enable|Disable|Leave|Move|Remove|Invite|Accept|Decline|Cancel|Register|Deregister|Tag|Untag|Close|Put)/.test(
            action,
          ),
        errorCode: err.code,
        errorMessage: err.message,
        userAgent: "aws-sdk-js",
      });
    }
    throw err;
  }
}

function serveOrganizations(
  store: StateStore,
  caller: AwsCaller,
  action: string,
  input: OrganizationsInput,
): unknown {
  const aws = store.state.aws;
  if (
    !ORGANIZATIONS_ACTIONS.has(action) &&
    !POLICY_ACTIONS.has(action) &&
    !TAG_ACTIONS.has(action) &&
    !POLICY_TYPE_ACTIONS.has(action) &&
    !RESOURCE_POLICY_ACTIONS.has(action)
  ) {
    throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
  }
  if (RESOURCE_POLICY_ACTIONS.has(action)) {
    const out = handleResourcePolicyAction(store, caller, action, input);
    if (action !== "DescribeResourcePolicy")
      recordCloudTrail(store, {
        eventName: action,
        eventSource: "organizations.amazonaws.com",
        region: "us-east-1",
        principalArn: caller.arn,
        accessKeyId: caller.accessKeyId,
        requestParameters: action === "PutResourcePolicy" ? { content: input.Content } : null,
        userAgent: "aws-sdk-js",
      });
    return out;
  }
  // A member account may call exactly what the delegation policy delegates to it
  // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html).
  if (caller.accountId !== aws.managementAccountId && !delegationAllows(aws, caller, action, input)) {
    throw new AwsError("AccessDeniedException", "You don't have permissions to access this resource.");
  }
  if (POLICY_ACTIONS.has(action)) return handlePolicyAction(store, caller, action, input);
  if (POLICY_TYPE_ACTIONS.has(action)) {
    const out = handlePolicyTypeAction(aws, action, input);
    store.changed();
    recordCloudTrail(store, {
      eventName: action,
      eventSource: "organizations.amazonaws.com",
      region: "us-east-1",
      principalArn: caller.arn,
      accessKeyId: caller.accessKeyId,
      requestParameters: { rootId: input.RootId, policyType: input.PolicyType },
      responseElements: { root: { id: aws.rootId, policyTypes: out.Root.PolicyTypes } },
      userAgent: "aws-sdk-js",
    });
    return out;
  }
  if (TAG_ACTIONS.has(action)) {
    const out = handleTagAction(aws, action, input, () => store.changed());
    if (action !== "ListTagsForResource")
      recordCloudTrail(store, {
        eventName: action,
        eventSource: "organizations.amazonaws.com",
        region: "us-east-1",
        principalArn: caller.arn,
        accessKeyId: caller.accessKeyId,
        requestParameters: {
          resourceId: input.ResourceId,
          ...(action === "TagResource" ? { tags: input.Tags } : { tagKeys: input.TagKeys }),
        },
        userAgent: "aws-sdk-js",
      });
    return out;
  }

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
      return paged([rootOf(aws)], input, "Roots");
    case "DescribeEffectivePolicy": {
      // The sandbox answers the effective declarative policy of an account
      // (https://docs.aws.amazon.com/organizations/latest/APIReference/API_DescribeEffectivePolicy.html).
      const type = required(input, "PolicyType");
      const targetId = required(input, "TargetId");
      if (type !== DECLARATIVE_EC2)
        throw new AwsError("InvalidInputException", `The sandbox describes ${DECLARATIVE_EC2} only.`);
      if (!aws.accounts.some((a) => a.id === targetId))
        throw new AwsError(
          "TargetNotFoundException",
          "We can't find a root, OU, account, or email that you specified.",
        );
      const effective = effectiveDeclarative(aws, targetId);
      if (effective.size === 0)
        throw new AwsError(
          "EffectivePolicyNotFoundException",
          "We can't find an effective policy of that type for the target.",
        );
      return {
        EffectivePolicy: {
          PolicyContent: JSON.stringify(effectiveDocument(effective)),
          LastUpdatedTimestamp: store.now().getTime() / 1000,
          TargetId: targetId,
          PolicyType: type,
        },
      };
    }
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
  }
  throw new AwsError("UnknownOperationException", `Operation ${action} is not supported by the sandbox.`);
}
