import { loadavg } from "node:os";
import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { inArray } from "drizzle-orm";
import { deployments } from "../../apps/server/src/modules/deployment/deployment-schema";
import { fillEvents } from "../support/fill-events";
import { timingSummary } from "../support/percentile";
import { type Figure, passes, record } from "../support/results";
import { flatten, startSandboxedPalisade, until } from "../support/sandboxed-palisade";

/**
 * Background jobs on the sandbox cloud, Palisade on a fresh PostgreSQL database (TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres):
 * - initiative install: every AWS policy of the catalogue (the NIST SP 800-53 initiative maps all
 *   of them) installed in PREVENT on one OU, from InstallInitiative until GetInitiativeInstall
 *   reports every bundle finished (polled every 10 ms); all must be DEPLOYED. Budget < 10 s.
 * - recommendation recompute: the sandbox organisation's 10 accounts, the installed bundles and
 *   BENCH_JOB_EVENTS (1,000,000) events of them (fillEvents makes their resource events), then
 *   RefreshRecommendations (the job's computation) BENCH_ROUNDS times (default 3); the first
 *   reads the audit window, later ones what arrived since. Budget < 10 s each.
 */
const INITIATIVE = "nist-sp-800-53-r5";
const OU = "Workloads";
const EVENTS = Number(process.env.BENCH_JOB_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BUDGET_MS = 10_000;
process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";

const figures: Figure[] = [];
function add(figure: Omit<Figure, "load">) {
  const withLoad = { ...figure, load: loadavg()[0] };
  figures.push(withLoad);
  record(withLoad);
}

const { server, admin } = await startSandboxedPalisade("postgres");
const db = server.palisade.database.db;
const tenantId = server.defaultTenantId;

try {
  const connectors = server.client(ConnectorService, admin);
  const initiatives = server.client(InitiativeService, admin);
  const aws = await until(
    async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
    (c) => c?.status === ConnectorStatus.CONNECTED,
  );
  const { roots } = await connectors.listHierarchy({ provider: CloudProvider.AWS });
  const nodes = flatten(roots);
  const ou = nodes.find((n) => n.name === OU && n.type === ScopeType.AWS_OU);
  const accounts = nodes.filter((n) => n.type === ScopeType.AWS_ACCOUNT);
  if (!ou || !aws) throw new Error(`the sandbox has no ${OU} OU`);

  // Initiative install.
  const started = performance.now();
  const install = await initiatives.installInitiative({
    slug: INITIATIVE,
    scopes: [{ provider: CloudProvider.AWS, externalId: ou.externalId }],
    mode: DeploymentMode.PREVENT,
  });
  const progress = await until(
    () => initiatives.getInitiativeInstall({ jobId: install.jobId }),
    (p) => p.finished,
    120_000,
  );
  const installMs = performance.now() - started;
  const notDeployed = progress.bundles.filter((b) => b.status !== DeploymentStatus.DEPLOYED);
  if (notDeployed.length > 0)
    throw new Error(`not DEPLOYED: ${notDeployed.map((b) => `${b.policySlug} (${b.status})`).join(", ")}`);
  add({
    group: "jobs",
    figure: `initiative install: ${progress.total} AWS catalogue policies (${INITIATIVE}) in PREVENT on one OU -> all DEPLOYED`,
    value: Math.round(installMs),
    unit: "ms",
    budget: { kind: "max", value: BUDGET_MS },
  });

  // Recommendation recompute on EVENTS events of the installed bundles.
  const bundleIds = install.bundles.map((b) => b.entity?.id ?? "");
  const deployed = await db
    .select({ id: deployments.id, bundleId: deployments.bundleId, name: deployments.name })
    .from(deployments)
    .where(inArray(deployments.bundleId, bundleIds));
  const t = performance.now();
  await fillEvents(
    db,
    tenantId,
    0,
    EVENTS,
    new Date().toISOString(),
    deployed.map((d) => ({ bundleId: d.bundleId, deploymentId: d.id, name: d.name })),
  );
  console.error(
    `${EVENTS.toLocaleString("en")} events of ${deployed.length} deployments filled in ${Math.round((performance.now() - t) / 1000)} s`,
  );
  const recommendations = server.client(RecommendationService, admin);
  const timings: number[] = [];
  let findings = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const r = performance.now();
    const outcome = await recommendations.refreshRecommendations({});
    timings.push(performance.now() - r);
    if (round === 0) findings = outcome.created + outcome.updated;
  }
  const later = timingSummary(timings.slice(1));
  add({
    group: "jobs",
    figure: `recommendation recompute, ${accounts.length} accounts and ${(EVENTS / 1_000_000).toLocaleString("en")}M events, first of ${ROUNDS} (later p50 ${Math.round(later.p50)} ms; ${findings} findings)`,
    value: Math.round(timings[0] ?? 0),
    unit: "ms",
    budget: { kind: "max", value: BUDGET_MS },
  });
} finally {
  await server.stop();
}

console.log(`\nJobs on the sandbox cloud (PostgreSQL)\n`);
console.log("| figure | value | budget | result | load |");
console.log("|---|---|---|---|---|");
for (const f of figures)
  console.log(
    `| ${f.figure} | ${f.value.toLocaleString("en")} ${f.unit} | < ${f.budget?.value.toLocaleString("en")} ${f.unit} | ${passes(f) ? "pass" : "FAIL"} | ${f.load?.toFixed(1)} |`,
  );
if (figures.some((f) => passes(f) === false)) process.exitCode = 1;
