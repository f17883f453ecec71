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
