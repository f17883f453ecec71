import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { eq } from "drizzle-orm";
import { bundles } from "../../apps/server/src/modules/deployment/deployment-schema";
import { timingSummary } from "../support/percentile";
import { record } from "../support/results";
import { flatten, startSandboxedPalisade, until } from "../support/sandboxed-palisade";

/**
 * CreateBundle -> DEPLOYED on the sandbox cloud: Palisade with its embedded database (or
 * DATABASE_URL) creates PREVENT bundles on AWS (an SCP attached to an OU) and Azure (definition
 * and assignment on a subscription) and polls the bundle's status every 10 ms until the deploy
 * job has finished. On Azure the bundle is PROPAGATING once the assignment is written and DEPLOYED
 * once the sandbox's stated propagation delay (1 s here; Azure: around five minutes) has passed:
 * both moments are figures. Each round deploys a fresh bundle and deletes it afterwards.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const { server, admin } = await startSandboxedPalisade();
const palisade = server.palisade;

try {
  const connectors = server.client(ConnectorService, admin);
  const deployments = server.client(DeploymentManagerService, admin);

  const scopeOf = async (provider: CloudProvider, name: string, type: ScopeType) => {
    const connector = await until(
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === provider),
      (c) => c?.status === ConnectorStatus.CONNECTED,
    );
    const { roots } = await connectors.listHierarchy({ provider });
    const node = flatten(roots).find((n) => n.name === name && n.type === type);
    if (!node || !connector) throw new Error(`the sandbox has no ${name}`);
    return { provider, externalId: node.externalId, connectorId: connector.entity?.id ?? "" };
  };
  const cases = [
    {
      provider: "AWS SCP on an OU",
      policySlug: "protect-s3-account-public-access-block",
      scope: await scopeOf(CloudProvider.AWS, "Workloads", ScopeType.AWS_OU),
    },
    {
      provider: "Azure assignment on a subscription",
      policySlug: "storage-accounts-https-only",
      scope: await scopeOf(CloudProvider.AZURE, "corp-prod", ScopeType.AZURE_SUBSCRIPTION),
    },
  ];

  const rows: { figure: string; p50: number; p95: number; max: number }[] = [];
  for (const { provider, policySlug, scope } of cases) {
    const timings: number[] = [];
    const written: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      const { bundle } = await deployments.createBundle({
        name: `bench ${policySlug} ${round}`,
        policySlug,
        scopes: [scope],
        mode: DeploymentMode.PREVENT,
        isVisible: true,
      });
      const id = bundle?.entity?.id ?? "";
      const statusOf = async () =>
        (await palisade.database.db.select().from(bundles).where(eq(bundles.id, id)))[0]?.status;
      if (scope.provider === CloudProvider.AZURE) {
        await until(statusOf, (s) => s === "PROPAGATING" || s === "DEPLOYED" || s === "FAILED");
        written.push(performance.now() - start);
      }
      const status = await until(statusOf, (s) => s === "DEPLOYED" || s === "FAILED");
      if (status !== "DEPLOYED") throw new Error(`${provider}: the bundle did not deploy (${status})`);
      timings.push(performance.now() - start);
      await deployments.deleteBundle({ id });
    }
    if (written.length > 0)
      rows.push({ figure: `CreateBundle -> PROPAGATING, ${provider}`, ...timingSummary(written) });
    rows.push({ figure: `CreateBundle -> DEPLOYED, ${provider}`, ...timingSummary(timings) });
  }

  console.log(`Deployment on the sandbox cloud (${palisade.database.engine}, ${ROUNDS} rounds each)`);
  console.log("| figure | p50 ms | p95 ms | max ms |");
  console.log("|---|---|---|---|");
  for (const row of rows) {
    console.log(`| ${row.figure} | ${row.p50.toFixed(0)} | ${row.p95.toFixed(0)} | ${row.max.toFixed(0)} |`);
    record({
      group: `deploy ${palisade.database.engine}`,
      figure: `${row.figure}, p50 of ${ROUNDS} (p95 ${row.p95.toFixed(0)} ms)`,
      value: Math.round(row.p50),
      unit: "ms",
    });
  }
} finally {
  await server.stop();
}
