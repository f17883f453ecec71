import { describe, expect, it } from "vitest";
import { evaluateRecordedRequest } from "./evaluate-recorded";
import type { ScpPolicy } from "./evaluate-scp";
import { type CloudTrailRecord, requestFromCloudTrail } from "./request-from-cloudtrail";

// requestParameters in CloudTrail's shape of each API
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html)
// mapped to the condition keys guardrails read, and what a record cannot tell kept unknown.

const role = "arn:aws:iam::111122223333:role/Developer";
const launch = (requestParameters: Record<string, unknown> | null): CloudTrailRecord => ({
  eventTime: "2026-06-01T12:00:00Z",
  eventSource: "ec2.amazonaws.com",
  eventName: "RunInstances",
  awsRegion: "eu-west-1",
  recipientAccountId: "111122223333",
  userIdentity: {
    type: "AssumedRole",
    arn: "arn:aws:sts::111122223333:assumed-role/Developer/jane",
    accountId: "111122223333",
    sessionContext: { sessionIssuer: { type: "Role", arn: role }, attributes: { mfaAuthenticated: "false" } },
  },
  requestParameters,
});
const scp = (statement: Record<string, unknown>): ScpPolicy => ({
  id: "p-test",
  arn: "",
  name: "test",
  document: { Version: "2012-10-17", Statement: [{ Effect: "Deny", ...statement }] },
});
const IMDSV2 = scp({
  Action: "ec2:RunInstances",
  Resource: "arn:aws:ec2:*:*:instance/*",
  Condition: { StringNotEquals: { "ec2:MetadataHttpTokens": "required" } },
});
const decide = (record: CloudTrailRecord, policy: ScpPolicy) =>
  evaluateRecordedRequest(requestFromCloudTrail(record), [policy]).decision;

describe("a CloudTrail record as an IAM request", () => {
  it("derives the keys of a launch from its parameters, and the role behind the session", () => {
    const request = requestFromCloudTrail(
      launch({
        instanceType: "m5.large",
        metadataOptions: { httpTokens: "required", httpPutResponseHopLimit: 2 },
        tagSpecificationSet: {
          items: [{ resourceType: "instance", tags: [{ key: "owner", value: "jane" }] }],
        },
      }),
    );
    expect(request).toMatchObject({
      action: "ec2:RunInstances",
      principalArn: role,
      account: "111122223333",
    });
    expect(request.checks[0]?.resource).toBe("arn:aws:ec2:eu-west-1:111122223333:instance/*");
    expect(request.checks[0]?.context).toMatchObject({
      "aws:PrincipalArn": role,
      "aws:RequestedRegion": "eu-west-1",
      "aws:MultiFactorAuthPresent": "false",
      "ec2:InstanceType": "m5.large",
      "ec2:MetadataHttpTokens": "required",
      "ec2:MetadataHttpPutResponseHopLimit": "2",
      "aws:RequestTag/owner": "jane",
      "aws:TagKeys": ["owner"],
    });
  });

  it.each([
    ["IMDSv2 required", { metadataOptions: { httpTokens: "required" } }, "not_denied"],
    ["IMDSv1", { metadataOptions: { httpTokens: "optional" } }, "explicit_deny"],
    // The whole launch is in the parameters: no metadata options is no IMDSv2.
    ["no metadata options", {}, "explicit_deny"],
    // A launch template supplies what the record does not show.
    ["a launch template", { launchTemplate: { launchTemplateId: "lt-0abc" } }, "not_evaluable"],
  ])("under an IMDSv2 guardrail, a launch with %s is %s", (_name, params, expected) => {
    expect(decide(launch({ instanceType: "t3.micro", ...params }), IMDSV2)).toBe(expected);
  });

  it("keeps unknown what CloudTrail does not record, unless a statement denies on what it does", () => {
    const tagged = scp({
      Action: "ec2:RunInstances",
      Resource: "*",
      Condition: { StringNotEquals: { "aws:PrincipalTag/admin": "true" } },
    });
    const result = evaluateRecordedRequest(requestFromCloudTrail(launch({})), [tagged]);
    expect(result).toMatchObject({ decision: "not_evaluable", missing: ["aws:principaltag/admin"] });
    // Another statement denies on the region, which the record tells.
    const both = scp({
      Action: "*",
      Resource: "*",
      Condition: { StringNotEquals: { "aws:RequestedRegion": "us-east-1" } },
    });
    expect(evaluateRecordedRequest(requestFromCloudTrail(launch({})), [tagged, both]).decision).toBe(
      "explicit_deny",
    );
  });

  it("does not match resource patterns against a resource the record does not name", () => {
    const roleGuard = scp({
      Action: "iam:DeleteRole",
      Resource: "arn:aws:iam::*:role/OrganizationAccountAccessRole",
    });
    const deleteRole = (resources?: CloudTrailRecord["resources"]): CloudTrailRecord => ({
      ...launch({ roleName: "OrganizationAccountAccessRole" }),
      eventSource: "iam.amazonaws.com",
      eventName: "DeleteRole",
      ...(resources ? { resources } : {}),
    });
    // A role's path is not in the request: its ARN is unknown.
    expect(decide(deleteRole(), roleGuard)).toBe("not_evaluable");
    const named = [{ ARN: "arn:aws:iam::111122223333:role/OrganizationAccountAccessRole" }];
    expect(decide(deleteRole(named), roleGuard)).toBe("explicit_deny");
  });

  it("reads a volume's encryption only where the request sets it", () => {
    const unencrypted = scp({
      Action: ["ec2:CreateVolume", "ec2:RunInstances"],
      Resource: "arn:aws:ec2:*:*:volume/*",
      Condition: { Bool: { "ec2:Encrypted": "false" } },
    });
    const volume = (params: Record<string, unknown>): CloudTrailRecord => ({
      ...launch(params),
      eventName: "CreateVolume",
    });
    expect(decide(volume({ size: 8, encrypted: false }), unencrypted)).toBe("explicit_deny");
    expect(decide(volume({ size: 8, encrypted: true }), unencrypted)).toBe("not_denied");
    // Left out, the account's default encryption decides.
    expect(decide(volume({ size: 8 }), unencrypted)).toBe("not_evaluable");
    const mapping = {
      blockDeviceMapping: { items: [{ deviceName: "/dev/xvda", ebs: { encrypted: false } }] },
    };
    expect(decide(launch(mapping), unencrypted)).toBe("explicit_deny");
  });

  it("names the IAM action of services whose event source differs", () => {
    expect(
      requestFromCloudTrail({ eventSource: "monitoring.amazonaws.com", eventName: "DeleteAlarms" }).action,
    ).toBe("cloudwatch:DeleteAlarms");
  });
});
