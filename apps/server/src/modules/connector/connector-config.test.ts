import { create } from "@bufbuild/protobuf";
import { ConnectorConfigSchema } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { describe, expect, it } from "vitest";
import { readConfig } from "./connector-config";

const aws = (trail?: Record<string, unknown>) =>
  create(ConnectorConfigSchema, {
    kind: {
      case: "aws",
      value: {
        managementAccountId: "111122223333",
        roleArn: "arn:aws:iam::111122223333:role/PalisadeConnector",
        region: "eu-west-1",
        ...(trail ? { trail } : {}),
      },
    },
  });
const trail = {
  bucket: "org-cloudtrail-logs",
  readerRoleArn: "arn:aws:iam::444455556666:role/PalisadeTrailReader",
};

function violation(input: ReturnType<typeof aws>): string | undefined {
  try {
    readConfig(input, undefined, false);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("AWS connector's organisation trail", () => {
  it("keeps LookupEvents (no trail) when none is named", () => {
    const { config } = readConfig(aws(), undefined, false);
    expect(config).not.toHaveProperty("trail");
  });

  it("defaults the bucket's region to the connector's and the backfill to 7 days; a reader role may be in any account", () => {
    const { config } = readConfig(aws({ ...trail, keyPrefix: "/audit/" }), undefined, false);
    expect(config).toMatchObject({
      trail: {
        bucket: "org-cloudtrail-logs",
        keyPrefix: "audit",
        bucketRegion: "eu-west-1",
        readerRoleArn: trail.readerRoleArn,
        readerExternalId: "",
        backfillDays: 7,
      },
    });
  });

  it.each([
    ["a bucket name with capitals", { bucket: "Org-Logs" }, "config.aws.trail.bucket"],
    [
      "a user as reader",
      { readerRoleArn: "arn:aws:iam::444455556666:user/bob" },
      "config.aws.trail.reader_role_arn",
    ],
    ["a region that is not one", { bucketRegion: "Ireland" }, "config.aws.trail.bucket_region"],
    ["a backfill over 90 days", { backfillDays: 91 }, "config.aws.trail.backfill_days"],
    ["a prefix with a space", { keyPrefix: "my logs" }, "config.aws.trail.key_prefix"],
  ])("refuses %s", (_name, change, field) => {
    expect(violation(aws({ ...trail, ...change }))).toContain(field);
  });
});
