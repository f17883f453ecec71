import { describe, expect, it } from "vitest";
import { awsConnectorSchema, azureConnectorSchema } from "./connector-form-schema";
import { EMPTY_POLICY_LIMITS } from "./policy-limits-form";

const aws = {
  name: "Production",
  managementAccountId: "111122223333",
  roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
  region: "",
  ...EMPTY_POLICY_LIMITS,
  trailBucket: "",
  trailKeyPrefix: "",
  trailBucketRegion: "",
  trailReaderRoleArn: "",
  trailReaderExternalId: "",
  trailBackfillDays: "",
};
const trail = {
  trailBucket: "org-cloudtrail-logs",
  trailReaderRoleArn: "arn:aws:iam::444455556666:role/PalisadeTrailReader",
};
const azure = {
  name: "Contoso",
  tenantId: "6f0a8a3c-2b1e-4c43-9d4b-2a7d1c9e5b11",
  clientId: "0c3f7b9a-1d2e-4f5a-8b6c-7d8e9f0a1b2c",
  credentialType: "secret" as const,
  clientSecret: "s3cr3t",
  certificatePem: "",
};

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe("AWS connector form", () => {
  it.each([
    ["a valid form", {}, undefined],
    ["an empty name", { name: "  " }, "Name is required"],
    ["a short account id", { managementAccountId: "1234" }, "Management account id is 12 digits"],
    [
      "a user ARN",
      { roleArn: "arn:aws:iam::111122223333:user/bob" },
      "Role ARN looks like arn:aws:iam::111122223333:role/Name",
    ],
    // A delegated administrator's role is in a member account.
    ["a role in a member account", { roleArn: "arn:aws:iam::999999999999:role/P" }, undefined],
    ["a bad region", { region: "Virginia" }, "Region looks like us-east-1"],
    ["raised SCP quotas", { scpMaxCharacters: "10240", scpMaxPerTarget: "10" }, undefined],
    [
      "characters per SCP that are not a number",
      { scpMaxCharacters: "10k" },
      "Characters per SCP is a number up to 1,000,000",
    ],
    ["too many SCPs per target", { scpMaxPerTarget: "1001" }, "SCPs per target is a number up to 1,000"],
    [
      "raised RCP and declarative quotas",
      { rcpMaxPerTarget: "10", declarativeMaxCharacters: "20000" },
      undefined,
    ],
    [
      "too many declarative policies per target",
      { declarativeMaxPerTarget: "5000" },
      "Declarative policies per target is a number up to 1,000",
    ],
    ["an organisation trail read by a role of the log-archive account", trail, undefined],
    [
      "a trail without its reader role",
      { ...trail, trailReaderRoleArn: "" },
      "Reader role ARN looks like arn:aws:iam::444455556666:role/Name",
    ],
    [
      "a bucket name with capitals",
      { ...trail, trailBucket: "Org-Logs" },
      "Bucket name is 3 to 63 lower-case letters, digits, dots and hyphens",
    ],
    ["a backfill over 90 days", { ...trail, trailBackfillDays: "91" }, "Backfill is 1 to 90 days"],
  ])("%s", (_name, change, message) => {
    expect(firstIssue(awsConnectorSchema.safeParse({ ...aws, ...change }))).toBe(message);
  });
});

describe("Azure connector form", () => {
  it.each([
    ["a valid secret form", {}, undefined],
    ["a tenant id that is not a GUID", { tenantId: "contoso.onmicrosoft.com" }, "Tenant id is a GUID"],
    ["no secret", { clientSecret: "" }, "Client secret is required"],
    [
      "a certificate without a key",
      { credentialType: "certificate", certificatePem: "-----BEGIN CERTIFICATE-----" },
      "Paste the PEM with the private key and the certificate",
    ],
  ])("%s", (_name, change, message) => {
    expect(firstIssue(azureConnectorSchema.safeParse({ ...azure, ...change }))).toBe(message);
  });
});
