import { Code, ConnectError } from "@connectrpc/connect";
import { ProductErrorCode, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { describe, expect, it } from "vitest";
import type { BundleRow } from "./bundle-repository";
import { bundleMessage, errorCodeOfName, excludedBundleFields, statusOfName } from "./deployment-message";

const now = new Date("2026-01-02T03:04:05Z");
const row: BundleRow = {
  id: "b1",
  tenantId: "t1",
  key: "ABC1234",
  name: "Keep S3 closed",
  policySlug: "protect-s3-account-public-access-block",
  provider: "aws",
  mode: "PREVENT",
  status: "FAILED",
  propagationEndsAt: null,
  errorCodes: ["POLICY_LIMIT_EXCEEDED"],
  scopes: [
    { externalId: "ou-abcd-11111111", name: "Workloads", type: "AWS_OU", provider: "aws", connectorId: "c1" },
  ],
  excludedScopes: [],
  parameters: { exempt_principal_arns: ["arn:aws:iam::*:role/Admin"] },
  feedbackMessage: "Blocked by ABC1234",
  affectedResourceTypes: ["AWS::S3::Bucket"],
  mainResourceType: "AWS::S3::AccountPublicAccessBlock",
  isVisible: true,
  namespace: null,
  waiverApprovalMode: "MANUAL",
  managedBy: null,
  createdBy: "Ada",
  editedBy: null,
  editedAt: null,
  deletedAt: null,
  createdAt: now,
  updatedAt: now,
};

describe("bundleMessage", () => {
  it("maps the stored bundle to the contract", () => {
    const message = bundleMessage(row);
    expect(message.entity?.id).toBe("b1");
    expect(message.status).toBe(DeploymentStatus.FAILED);
    expect(message.errorCodes).toEqual([ProductErrorCode.POLICY_LIMIT_EXCEEDED]);
    expect(message.scopes[0]).toMatchObject({
      externalId: "ou-abcd-11111111",
      type: ScopeType.AWS_OU,
      connectorId: "c1",
    });
    expect(message.parameters).toEqual({ exempt_principal_arns: ["arn:aws:iam::*:role/Admin"] });
    expect(message.namespace).toBeUndefined();
  });

  it("leaves out the fields of the exclude mask, in either spelling", () => {
    const message = bundleMessage(row, excludedBundleFields(["parameters", "feedbackMessage", "scopes"]));
    expect(message.parameters).toBeUndefined();
    expect(message.feedbackMessage).toBe("");
    expect(message.scopes).toEqual([]);
    expect(message.key).toBe("ABC1234");
  });

  it.each([["entity"], ["no_such_field"]])("refuses to exclude %s", (path) => {
    try {
      excludedBundleFields([path]);
      throw new Error("accepted");
    } catch (error) {
      expect(ConnectError.from(error).code).toBe(Code.InvalidArgument);
    }
  });
});

describe("status and error code names", () => {
  it.each([
    ["PENDING", DeploymentStatus.PENDING],
    ["EVALUATING", DeploymentStatus.EVALUATING],
    ["DEPLOYED", DeploymentStatus.DEPLOYED],
    ["FAILED", DeploymentStatus.FAILED],
    ["DELETED", DeploymentStatus.DELETED],
    // A scope being removed has no state of its own in the contract.
    ["DELETING", DeploymentStatus.PENDING],
  ])("%s -> %s", (name, status) => {
    expect(statusOfName(name)).toBe(status);
  });

  it.each([
    [null, ProductErrorCode.UNSPECIFIED],
    ["CLOUD_INVALID_SCOPE", ProductErrorCode.CLOUD_INVALID_SCOPE],
    ["WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE", ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE],
    ["SOMETHING_ELSE", ProductErrorCode.DEPLOYMENT_SYNC_FAILED],
  ])("%s -> %s", (name, code) => {
    expect(errorCodeOfName(name)).toBe(code);
  });
});
