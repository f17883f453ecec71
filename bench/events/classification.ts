import type { AuditRecord } from "../../apps/server/src/cloud/cloud-provider";
import { classifyAudit } from "../../apps/server/src/modules/event/classify";
import type { ClassifyContext } from "../../apps/server/src/modules/event/classify-context";

const TENANT = "bench-tenant";
const BUNDLES = 20;
const NOW = Date.parse("2026-06-01T00:00:00Z");

/**
 * Records/s through classification: CloudTrail records of an account under 20 bundles (half in
 * ALERT mode, so every allowed record is evaluated against their compiled SCPs).
 */
export function classification(): { records: number; events: number; perSecond: number } {
  const account = "111122223333";
  const scp = (b: number) =>
    JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: `PalisadeB${b}S0`,
          Effect: "Deny",
          Action: b % 2 === 0 ? "organizations:LeaveOrganization" : "s3:PutBucketAcl",
          Resource: "*",
          Condition: { StringNotEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] } },
        },
      ],
    });
  const ctx: ClassifyContext = {
    tenantId: TENANT,
    provider: "aws",
    deployments: Array.from({ length: BUNDLES }, (_, b) => ({
      id: `dep-${b}`,
      bundleId: `bundle-${b}`,
      key: `BENCH${b}`,
      name: `Bundle ${b}`,
      namespace: null,
      mode: b < BUNDLES / 2 ? ("ALERT" as const) : ("PREVENT" as const),
      nativeId: `p-${b}`,
      scopeExternalId: "ou-bench",
      excludedScopes: [],
      affectedResourceTypes: [],
      scp: { id: `p-${b}`, arn: "", name: `b${b}`, document: scp(b) },
    })),
    waivers: [],
    ancestorsOf: (id) => [id, "ou-bench", "r-bench"],
    consoleLinks: false,
  };
  const count = 50_000;
  const records: AuditRecord[] = Array.from({ length: count }, (_, i) => {
    const denied = i % 10 === 0;
    const body = {
      awsRegion: i % 3 === 0 ? "us-east-1" : "eu-west-1",
      recipientAccountId: account,
      userIdentity: {
        type: "IAMUser",
        arn: `arn:aws:iam::${account}:user/u${i % 50}`,
        userName: `u${i % 50}`,
      },
      requestParameters: {},
      resources: [{ ARN: `arn:aws:s3:::bucket-${i % 500}`, accountId: account, type: "AWS::S3::Bucket" }],
      ...(denied
        ? {
            errorCode: "AccessDenied",
            errorMessage: `... with an explicit deny in a service control policy: arn:aws:organizations::999988887777:policy/o-x/service_control_policy/p-${BUNDLES - 1}`,
          }
        : {}),
    };
    return {
      id: `rec-${i}`,
      time: new Date(NOW + i),
      action: i % 2 === 0 ? "organizations:LeaveOrganization" : "s3:PutBucketAcl",
      principal: body.userIdentity.arn,
      scopeId: account,
      errorCode: body.errorCode,
      errorMessage: body.errorMessage,
      raw: { CloudTrailEvent: JSON.stringify(body) },
    };
  });
  const t = performance.now();
  let events = 0;
  for (const record of records) events += classifyAudit(record, ctx).length;
  const seconds = (performance.now() - t) / 1000;
  return { records: count, events, perSecond: count / seconds };
}
