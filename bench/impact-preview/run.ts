import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { ImpactPreviewStatus } from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { eq } from "drizzle-orm";
import type { AuditRecord } from "../../apps/server/src/cloud/cloud-provider";
import { hierarchyNodes } from "../../apps/server/src/modules/connector/connector-schema";
import { impactPreviews } from "../../apps/server/src/modules/deployment/impact-preview-schema";
import { storeRequests } from "../../apps/server/src/modules/event/request-summary";
import { record } from "../support/results";
import { flatten, startSandboxedPalisade, until } from "../support/sandboxed-palisade";

/**
 * The impact preview over 30 days of an organisation's stored requests. The preview reads what
 * ingest stored (`request_summaries`: one row per day and distinct request), so the month is
 * written the way ingest writes it (CloudTrail records of 100 member accounts, folded by
 * `storeRequests`, as the event fetch stores each batch), then StartImpactPreview of the region
 * guardrail on the organisation root is polled every 250 ms until the job records its end.
 * BENCH_PREVIEW_DISTINCT sets the distinct requests per account and day (default 300: 20
 * principals, each with its own mix of actions and regions); a request made again the same day
 * only raises a count, so the records behind them (5 million a day at AWS's scale) do not add rows.
 */
const ACCOUNTS = 100;
const DAYS = 30;
const DISTINCT = Number(process.env.BENCH_PREVIEW_DISTINCT ?? 300);
const POLL_MS = 250;
const PRINCIPALS = 20;
const ACTIONS = [
  ["ec2.amazonaws.com", "DescribeInstances"],
  ["ec2.amazonaws.com", "RunInstances"],
  ["s3.amazonaws.com", "CreateBucket"],
  ["s3.amazonaws.com", "PutBucketAcl"],
  ["rds.amazonaws.com", "CreateDBInstance"],
  ["iam.amazonaws.com", "CreateUser"],
  ["kms.amazonaws.com", "Decrypt"],
  ["sts.amazonaws.com", "AssumeRole"],
  ["lambda.amazonaws.com", "UpdateFunctionCode20150331v2"],
  ["logs.amazonaws.com", "PutRetentionPolicy"],
] as const;
const REGIONS = ["us-east-1", "us-east-1", "eu-west-1", "eu-west-1", "ap-southeast-2", "sa-east-1"];

/** A small deterministic generator, so every run stores the same month. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const { server, admin } = await startSandboxedPalisade("pglite");
try {
  const db = server.palisade.database.db;
  const connectors = server.client(ConnectorService, admin);
  const manager = server.client(DeploymentManagerService, admin);
  const { roots } = await until(
    () => connectors.listHierarchy({ provider: CloudProvider.AWS }),
    (h) => flatten(h.roots).some((n) => n.type === ScopeType.AWS_ORGANIZATION_ROOT),
  );
  const root = flatten(roots).find((n) => n.type === ScopeType.AWS_ORGANIZATION_ROOT);
  if (!root) throw new Error("the sandbox organisation has no root");
  const tenantId = server.defaultTenantId;
  const connector = { tenantId, id: root.connectorId };

  // The organisation's 100 member accounts, under the root.
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => String(200000000000 + i));
  await db
    .insert(hierarchyNodes)
    .values(
      accounts.map((id) => ({
        tenantId,
        connectorId: connector.id,
        provider: "aws",
        externalId: id,
        parentExternalId: root.externalId,
        name: `member-${id}`,
        type: "AWS_ACCOUNT",
      })),
    )
    .onConflictDoNothing();

  const rnd = random(20260601);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const today = Date.UTC(2026, 10, 27);
  const filling = performance.now();
  let rows = 0;
  for (let day = DAYS - 1; day >= 0; day--) {
    const batch: AuditRecord[] = [];
    for (const account of accounts) {
      for (let n = 0; n < DISTINCT; n++) {
        const [source, name] = pick(ACTIONS);
        const role = `arn:aws:iam::${account}:role/team-${Math.floor(rnd() * PRINCIPALS)}`;
        const time = new Date(today - day * 86_400_000 + Math.floor(rnd() * 86_400_000));
        const raw = {
          eventTime: time.toISOString(),
          eventSource: source,
          eventName: name,
          awsRegion: pick(REGIONS),
          recipientAccountId: account,
          userIdentity: {
            type: "AssumedRole",
            arn: `${role.replace(":iam:", ":sts:").replace(":role/", ":assumed-role/")}/s`,
            accountId: account,
            sessionContext: {
              sessionIssuer: { type: "Role", arn: role },
              attributes: { mfaAuthenticated: "false" },
            },
          },
          requestParameters: { instanceType: pick(["t3.micro", "m5.large"]), bucketName: `b-${n % 7}` },
        };
        batch.push({
          id: `${day}-${account}-${n}`,
          time,
          action: `${source.split(".")[0]}:${name}`,
          principal: raw.userIdentity.arn,
          scopeId: account,
          errorCode: undefined,
          errorMessage: undefined,
          raw,
        });
      }
    }
    rows += await storeRequests(db, connector, batch, undefined, new Date(today));
  }
  const fillSeconds = (performance.now() - filling) / 1000;

  // The fill leaves the client's kept-alive connection idle for minutes; the server may have
  // closed it, and a call on it then fails before reaching the server.
  await connectors.listConnectors({}).catch(() => connectors.listConnectors({}));
  const started = Date.now();
  // Palisade and its embedded database run in this process: its CPU time is the preview's work,
  // whatever else the machine runs meanwhile (the elapsed time is not).
  const cpuBefore = process.cpuUsage();
  const { preview: first } = await manager.startImpactPreview({
    policySlug: "deny-regions-outside-allowlist",
    parameters: { allowed_regions: ["us-east-1", "eu-west-1"] },
    scopes: [{ provider: CloudProvider.AWS, externalId: root.externalId, connectorId: root.connectorId }],
    periodDays: DAYS,
  });
  const preview = await until(
    async () => (await manager.getImpactPreview({ id: first?.id ?? "" })).preview,
    (p) => p?.status === ImpactPreviewStatus.SUCCEEDED || p?.status === ImpactPreviewStatus.FAILED,
    10 * 60_000,
    POLL_MS,
  );
  if (!preview || preview.status !== ImpactPreviewStatus.SUCCEEDED)
    throw new Error(`the preview failed: ${preview?.error}`);
  // The end is the time the job recorded (same machine, same clock), so polling does not add to it.
  const [finished] = await db
    .select({ at: impactPreviews.finishedAt })
    .from(impactPreviews)
    .where(eq(impactPreviews.id, preview.id));
  if (!finished?.at) throw new Error("the finished preview has no end time");
  const ms = finished.at.getTime() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const [load] = (await import("node:os")).loadavg();

  console.log(`Impact preview over ${DAYS} days of stored requests (${server.palisade.database.engine})`);
  console.log("| figure | value |");
  console.log("|---|---|");
  console.log(`| member accounts | ${ACCOUNTS} |`);
  console.log(`| stored rows (day x distinct request), written in ${fillSeconds.toFixed(1)} s | ${rows} |`);
  console.log(`| requests evaluated | ${preview.recordsEvaluated} |`);
  console.log(`| would be denied | ${preview.deniedCount} by ${preview.distinctPrincipals} principals |`);
  console.log(`| not evaluable | ${preview.notEvaluableCount} |`);
  console.log(
    `| StartImpactPreview -> SUCCEEDED | ${(ms / 1000).toFixed(1)} s (load average ${load?.toFixed(1)}) |`,
  );
  console.log(`| CPU time of the process meanwhile (polling included) | ${(cpuMs / 1000).toFixed(1)} s |`);
  record({
    group: `impact preview ${server.palisade.database.engine}`,
    figure: `preview of ${DAYS} days of a ${ACCOUNTS}-account organisation's stored requests (${rows.toLocaleString("en")} rows)`,
    value: ms,
    unit: "ms",
    budget: { kind: "max", value: 10_000 },
  });
} finally {
  await server.stop();
}
