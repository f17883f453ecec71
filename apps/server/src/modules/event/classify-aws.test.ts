import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { classifyCloudTrail } from "./classify-aws";
import type { ClassifyContext, DeploymentInfo } from "./classify-context";

const ACCOUNT = "111122223333";
const AT = new Date("2026-11-20T10:00:00Z");

/** A PREVENT guardrail on the account denying LeaveOrganization; it was waived for role Developer. */
const deployment: DeploymentInfo = {
  id: "d-leave",
  bundleId: "b-leave",
  key: "LEAVE77",
  name: "No leaving",
  namespace: null,
  mode: "PREVENT",
  nativeId: "p-12345678",
  scopeExternalId: ACCOUNT,
  excludedScopes: [],
  affectedResourceTypes: [],
  scp: {
    id: "p-12345678",
    arn: "",
    name: "palisade-leave",
    document: {
      Version: "2012-10-17",
      Statement: [
        { Sid: "LEAVE77", Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" },
      ],
    },
  },
};

const context: ClassifyContext = {
  tenantId: "t-1",
  provider: "aws",
  deployments: [deployment],
  waivers: [
    {
      deploymentId: deployment.id,
      from: new Date(AT.getTime() - 3_600_000),
      until: new Date(AT.getTime() + 3_600_000),
      scope: null,
      resource: null,
      // As stored from a request naming the session arn:aws:sts::…:assumed-role/Developer/alice.
      principalArn: `arn:aws:iam::${ACCOUNT}:role/Developer`,
    },
  ],
  ancestorsOf: (id) => [id, "r-root"],
  consoleLinks: false,
};

/**
 * An allowed LeaveOrganization by a role session, with the userIdentity CloudTrail writes for it
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-user-identity.html).
 */
function sessionRecord(role: string, session: string, roleArn: string): AuditRecord {
  const arn = `arn:aws:sts::${ACCOUNT}:assumed-role/${role}/${session}`;
  return {
    id: `${role}-${session}`,
    time: AT,
    action: "organizations:LeaveOrganization",
    principal: arn,
    scopeId: ACCOUNT,
    errorCode: undefined,
    errorMessage: undefined,
    raw: {
      eventName: "LeaveOrganization",
      eventSource: "organizations.amazonaws.com",
      awsRegion: "us-east-1",
      recipientAccountId: ACCOUNT,
      userIdentity: {
        type: "AssumedRole",
        principalId: `AROAEXAMPLEID:${session}`,
        arn,
        accountId: ACCOUNT,
        sessionContext: { sessionIssuer: { type: "Role", arn: roleArn, accountId: ACCOUNT, userName: role } },
      },
    },
  };
}

describe("classifying a role session's request under a principal waiver", () => {
  it("counts every session of the waived role as waived, whatever the role's path", () => {
    for (const record of [
      sessionRecord("Developer", "alice", `arn:aws:iam::${ACCOUNT}:role/Developer`),
      sessionRecord("Developer", "bob", `arn:aws:iam::${ACCOUNT}:role/teams/Developer`),
    ]) {
      expect(classifyCloudTrail(record, context).map((e) => e.type)).toEqual(["WAIVED"]);
    }
  });

  it("does not count another role's session as waived", () => {
    const record = sessionRecord("Admin", "alice", `arn:aws:iam::${ACCOUNT}:role/Admin`);
    expect(classifyCloudTrail(record, context)).toEqual([]);
  });
});

describe("classifying a request denied by a resource control policy", () => {
  const MEMBER = "111122223333";
  const OUTSIDER = "arn:aws:iam::444455556666:role/Partner";
  const rcpDeployment: DeploymentInfo = {
    ...deployment,
    id: "d-org-only",
    bundleId: "b-org-only",
    key: "RCP7777",
    nativeId: "p-rcp12345",
    scopeExternalId: "ou-ab12-cdef3456",
    scp: {
      id: "p-rcp12345",
      arn: "",
      name: "palisade-rcp-ou-ab12-cdef3456-0",
      document: {
        Version: "2012-10-17",
        Statement: [
          {
            Sid: "PRCP77770",
            Effect: "Deny",
            Principal: "*",
            Action: "sts:AssumeRole",
            Resource: "*",
            Condition: { StringNotEqualsIfExists: { "aws:PrincipalOrgID": "o-a1b2c3d4e5" } },
          },
        ],
      },
    },
  };
  const rcpContext: ClassifyContext = {
    ...context,
    deployments: [rcpDeployment],
    waivers: [],
    ancestorsOf: (id) => [id, "ou-ab12-cdef3456", "r-root"],
  };
  // The record the resource's account receives for a caller outside the organisation.
  const denied = (message: string): AuditRecord => ({
    id: "assume",
    time: AT,
    action: "sts:AssumeRole",
    principal: OUTSIDER,
    scopeId: MEMBER,
    errorCode: "AccessDenied",
    errorMessage: message,
    raw: {
      eventName: "AssumeRole",
      eventSource: "sts.amazonaws.com",
      awsRegion: "us-east-1",
      recipientAccountId: MEMBER,
      errorCode: "AccessDenied",
      errorMessage: message,
      userIdentity: { type: "AWSAccount", principalId: "AROAPARTNER", accountId: "444455556666" },
      requestParameters: { roleArn: `arn:aws:iam::${MEMBER}:role/Deployer`, roleSessionName: "x" },
      resources: [{ ARN: `arn:aws:iam::${MEMBER}:role/Deployer`, accountId: MEMBER, type: "AWS::IAM::Role" }],
    },
  });
  const named = `User: ${OUTSIDER} is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::${MEMBER}:role/Deployer with an explicit deny in a resource control policy: arn:aws:organizations::999988887777:policy/o-a1b2c3d4e5/resource_control_policy/p-rcp12345`;

  it("attributes a denial naming the RCP to its guardrail, on the resource's side", () => {
    const events = classifyCloudTrail(denied(named), rcpContext);
    expect(events.map((e) => [e.type, e.deploymentId])).toEqual([["PREVENTION", "d-org-only"]]);
  });

  it("attributes an unnamed RCP denial by evaluating the guardrails on the resource's path", () => {
    // The record cannot tell the caller's organisation, so the guardrail here denies on what it tells.
    const statement = {
      Sid: "PRCP77770",
      Effect: "Deny" as const,
      Principal: "*" as const,
      Action: "sts:AssumeRole",
      Resource: "*",
    };
    const plain = {
      ...rcpContext,
      deployments: [
        {
          ...rcpDeployment,
          scp: {
            ...rcpDeployment.scp!,
            document: { Version: "2012-10-17" as const, Statement: [statement] },
          },
        },
      ],
    };
    expect(
      classifyCloudTrail(denied(named.replace(/: arn:aws:organizations\S+$/, "")), {
        ...plain,
        deployments: [{ ...plain.deployments[0]!, scopeExternalId: "r-elsewhere" }],
      }),
    ).toEqual([]);
    const unnamed = `User: ${OUTSIDER} is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::${MEMBER}:role/Deployer with an explicit deny in a resource control policy`;
    expect(classifyCloudTrail(denied(unnamed), plain).map((e) => e.deploymentId)).toEqual(["d-org-only"]);
  });

  it("leaves a denial by an identity policy alone", () => {
    const other = `User: ${OUTSIDER} is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::${MEMBER}:role/Deployer with an explicit deny in an identity-based policy`;
    expect(classifyCloudTrail(denied(other), rcpContext)).toEqual([]);
  });
});
