import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { ImpactPreviewStatus } from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { CLOUDTRAIL_LOOKUPS_PER_SECOND } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { eq, sql } from "drizzle-orm";
import { impactPreviews } from "../../apps/server/src/db/schema/impact-previews";
import { rowsOf } from "../../apps/server/src/modules/event/event-repository";
import { record } from "../support/results";
import { startSandboxProcess } from "../support/sandbox-process";
import { flatten, startSandboxedPalisade, until } from "../support/sandboxed-palisade";

/**
 * The impact preview over 30 days of sandbox activity: engineers' calls spread evenly over 30
 * days of the sandbox's clock (which only moves forward, so the month ends 30 days from now),
 * then StartImpactPreview of the region guardrail on the organisation root, polled every 250 ms
 * (polling more often costs the server it measures) until the job records its end. CloudTrail answers LookupEvents 50 records at a time and at most twice
 * a second, so at AWS's rate the time is bound below by pages / 2 s. BENCH_PREVIEW_LOOKUPS_PER_SECOND
 * sets the rate the sandbox states (and Palisade paces itself to): raised, the figure is
 * Palisade's own work without the provider's limit.
 */
const ACTIONS = Number(process.env.BENCH_PREVIEW_ACTIONS ?? 500);
const LOOKUPS_PER_SECOND = Number(
  process.env.BENCH_PREVIEW_LOOKUPS_PER_SECOND ?? CLOUDTRAIL_LOOKUPS_PER_SECOND,
);
const DAYS = 30;
/** Calls made at the same moment of the sandbox's clock, sent together. */
const CALLS_PER_STEP = 50;
const POLL_MS = 250;

const ACCOUNTS = [
  "payments-prod",
  "storefront-prod",
  "payments-dev",
  "storefront-dev",
  "sandbox-alice",
  "sandbox-bob",
];
const PRINCIPALS = [
  "user/alice",
  "user/bob",
  "user/carol",
  "user/dave",
  "role/ci-deployer",
  "role/data-pipeline",
];
const CALLS = [
  "ec2:DescribeInstances",
  "ec2:RunInstances",
  "s3:ListBucket",
  "s3:CreateBucket",
  "rds:DescribeDBInstances",
  "iam:CreateUser",
  "kms:Decrypt",
];
const REGIONS = [
  "us-east-1",
  "us-east-1",
  "us-east-1",
  "eu-west-1",
  "eu-west-1",
  "ap-southeast-2",
  "sa-east-1",
];

/** A small deterministic generator, so every run replays the same month. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// The sandbox answers LookupEvents from its own process, as CloudTrail would from its servers.
const cloud = await startSandboxProcess([
  "--lookups-per-second",
  String(LOOKUPS_PER_SECOND),
  // The month must fit in the trail: every call leaves a record, and the sandbox keeps 20,000.
  "--audit-records",
  String(Math.max(20_000, ACTIONS + 1_000)),
]);
const { server, admin } = await startSandboxedPalisade("pglite", { SANDBOX_URL: cloud.url });
try {
  const sandbox = server.palisade.cloud.sandbox;
  if (!sandbox) throw new Error("the sandbox cloud did not start");
  const post = async (path: string, body: unknown): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${sandbox.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        await response.arrayBuffer();
        return response.status;
      } catch (error) {
        // A kept-alive connection the sandbox closed meanwhile: the call did not happen, try again.
        if (attempt >= 5) throw error;
      }
    }
  };
  const rnd = random(20240611);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)] as T;
  const steps = Math.ceil(ACTIONS / CALLS_PER_STEP);
  const step = (DAYS * 86_400) / steps;
  const filling = performance.now();
  for (let made = 0; made < ACTIONS; made += CALLS_PER_STEP) {
    const calls = Array.from({ length: Math.min(CALLS_PER_STEP, ACTIONS - made) }, () => ({
      provider: "aws",
      account: pick(ACCOUNTS),
      principal: pick(PRINCIPALS),
      action: pick(CALLS),
      resource: "*",
      region: pick(REGIONS),
    }));
    await Promise.all(calls.map((call) => post("/sandbox/try", call)));
    await post("/sandbox/control/clock", { advanceSeconds: step });
  }
  const fillSeconds = (performance.now() - filling) / 1000;

  const connectors = server.client(ConnectorService, admin);
  const manager = server.client(DeploymentManagerService, admin);
  await until(
    async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
    (c) => c?.status === ConnectorStatus.CONNECTED,
  );
  // The month's calls are also new audit records for the event pipeline: it reads and classifies
  // them (and recommendations are recomputed after it) before the preview starts, as in a running
  // instance, where each fetch has only the last minute's records to read.
  const settling = performance.now();
  await server.client(PolicyEventStoreService, admin).triggerFetch({});
  let quietPolls = 0;
  await until(
    async () => {
      const [row] = rowsOf<{ n: number }>(
        await server.palisade.database.db.execute(
          sql`select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()`,
        ),
      );
      quietPolls = row?.n === 0 ? quietPolls + 1 : 0;
      return quietPolls;
    },
    (polls) => polls >= 10,
    10 * 60_000,
    100,
  );
  const settleSeconds = (performance.now() - settling) / 1000;

  const { roots } = await connectors.listHierarchy({ provider: CloudProvider.AWS });
  const root = flatten(roots).find((n) => n.type === ScopeType.AWS_ORGANIZATION_ROOT);
  if (!root) throw new Error("the sandbox organisation has no root");

  const started = Date.now();
  const { preview: first } = await manager.startImpactPreview({
    policySlug: "deny-regions-outside-allowlist",
    parameters: { allowed_regions: ["us-east-1", "eu-west-1"] },
    scopes: [{ provider: CloudProvider.AWS, externalId: root.externalId, connectorId: root.connectorId }],
    periodDays: DAYS,
  });
  const preview = await until(
    async () => (await manager.getImpactPreview({ id: first?.id ?? "" })).preview,
    (p) => p?.status === ImpactPreviewStatus.SUCCEEDED || p?.status === ImpactPreviewStatus.FAILED,
    30 * 60_000,
    POLL_MS,
  );
  if (!preview || preview.status !== ImpactPreviewStatus.SUCCEEDED)
    throw new Error(`the preview failed: ${preview?.error}`);
  // The end is the time the job recorded (same machine, same clock), so the polling interval
  // does not add to the figure.
  const [finished] = await server.palisade.database.db
    .select({ at: impactPreviews.finishedAt })
    .from(impactPreviews)
    .where(eq(impactPreviews.id, preview.id));
  if (!finished?.at) throw new Error("the finished preview has no end time");
  const ms = finished.at.getTime() - started;
  const floorMs = ((preview.pagesRead - 1) * 1000) / LOOKUPS_PER_SECOND;
  const awsFloorMs = ((preview.pagesRead - 1) * 1000) / CLOUDTRAIL_LOOKUPS_PER_SECOND;
  const rate = `${LOOKUPS_PER_SECOND.toLocaleString("en")} LookupEvents/s`;

  console.log(`Impact preview over ${DAYS} days of sandbox activity (${server.palisade.database.engine})`);
  console.log("| figure | value |");
  console.log("|---|---|");
  console.log(`| sandbox calls made (filled in ${fillSeconds.toFixed(1)} s) | ${ACTIONS} |`);
  console.log(`| event pipeline caught up with them in | ${settleSeconds.toFixed(1)} s |`);
  console.log(`| CloudTrail records read | ${preview.recordsEvaluated} |`);
  console.log(`| LookupEvents pages read | ${preview.pagesRead} |`);
  console.log(`| would be denied | ${preview.deniedCount} by ${preview.distinctPrincipals} principals |`);
  console.log(`| StartImpactPreview -> SUCCEEDED | ${(ms / 1000).toFixed(1)} s |`);
  console.log(`| floor set by the sandbox's ${rate} | ${(floorMs / 1000).toFixed(1)} s |`);
  console.log(`| floor at CloudTrail's own 2 requests/s | ${(awsFloorMs / 1000).toFixed(1)} s |`);
  console.log(`| time above that floor | ${((ms - floorMs) / 1000).toFixed(1)} s |`);
  record({
    group: `impact preview ${server.palisade.database.engine}`,
    figure: `preview of ${DAYS} days of sandbox activity (${preview.recordsEvaluated.toLocaleString("en")} records, ${preview.pagesRead} pages) at ${rate}, less the ${(floorMs / 1000).toFixed(1)} s that rate sets (at CloudTrail's 2/s the reads alone take ${(awsFloorMs / 1000).toFixed(0)} s)`,
    value: Math.round(ms - floorMs),
    unit: "ms",
    budget: preview.recordsEvaluated >= 50_000 ? { kind: "max", value: 3_000 } : undefined,
  });
} finally {
  await server.stop();
  await cloud.stop();
}
