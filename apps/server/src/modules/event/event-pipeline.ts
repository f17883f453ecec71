import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { and, eq, gte, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { connectors, hierarchyNodes } from "../../db/schema/connectors";
import { bundles, deployments, waivers } from "../../db/schema/deployments";
import { complianceObservations, policyEvents, resourceEvents } from "../../db/schema/events";
import { jobs as jobRows } from "../../db/schema/operations";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import { loadTenantCatalogue } from "../policy-definition/tenant-catalogue";
import {
  type ClassifyContext,
  type ComplianceFinding,
  classifyAudit,
  complianceEvent,
  type DeploymentInfo,
  latestCompliance,
  type WaiverInfo,
} from "./classify";
import { type NewPolicyEvent, writeEvents } from "./record-event";

export const FETCH_JOB = "events.fetch";
export const FETCH_ALL_JOB = "events.fetch-all";
export const FETCH_CRON = "* * * * *";

interface FetchJobData {
  connectorId?: string;
  tenantId?: string;
  /** Row of the `jobs` table the user sees, when a user asked for it. */
  jobId?: string;
  /** Rebuild the tenant's resource events from its stored events first. */
  resync?: boolean;
}

export interface FetchOutcome {
  records: number;
  events: number;
  states: number;
}

export interface EventPipeline {
  /** Reads one connector's audit stream and compliance states now and stores what they show. */
  fetchConnector(connectorId: string): Promise<FetchOutcome>;
  /** Queues a fetch of the tenant's connectors (or one); returns the id of the job users see. */
  requestFetch(input: {
    tenantId: string;
    connectorIds: string[];
    createdBy: string | null;
    kind: string;
    resync?: boolean;
  }): Promise<string>;
  /** Re-derives each resource event's newest event from the stored events (dismissed flags kept). */
  rebuildResourceEvents(tenantId: string): Promise<void>;
}

type StoredScope = { externalId: string };

const DRIFT_NEAR_REQUEST_MS = 5000;

/**
 * The event pipeline: a job per connector reads the provider's audit stream from the
 * connector's cursor and its compliance states, classifies them against Palisade's deployments
 * and waivers, writes the events idempotently and only then moves the cursor, in one transaction.
 */
export async function startEventPipeline(deps: {
  db: Database;
  jobs: JobQueue;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  logger: Logger;
}): Promise<EventPipeline> {
  const { db, jobs, runtime, logger } = deps;
  // One fetch per connector at a time in this process; a second request waits for the first.
  const running = new Map<string, Promise<FetchOutcome>>();

  async function loadContext(connector: typeof connectors.$inferSelect, provider: "aws" | "azure") {
    const rows = await db
      .select({
        id: deployments.id,
        bundleId: deployments.bundleId,
        key: bundles.key,
        name: bundles.name,
        namespace: bundles.namespace,
        mode: bundles.mode,
        nativeId: deployments.nativeId,
        scopeExternalId: deployments.scopeExternalId,
        excludedScopes: bundles.excludedScopes,
        affectedResourceTypes: bundles.affectedResourceTypes,
        policySlug: bundles.policySlug,
        parameters: bundles.parameters,
        scopes: bundles.scopes,
      })
      .from(deployments)
      .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
      .where(
        and(
          eq(deployments.tenantId, connector.tenantId),
          or(eq(deployments.connectorId, connector.id), isNull(deployments.connectorId)),
          ne(deployments.status, "DELETED"),
          isNull(bundles.deletedAt),
        ),
      );
    const catalogue =
      rows.length > 0 ? await loadTenantCatalogue(db, deps.catalogue, connector.tenantId) : undefined;
    const all = new Map<string, Definition>(
      (catalogue?.definitions ?? []).map((entry) => [entry.definition.slug, entry.definition]),
    );
    const scpByBundle = new Map<string, DeploymentInfo["scp"]>();
    const infos: DeploymentInfo[] = [];
    for (const row of rows) {
      const definition = all.get(row.policySlug);
      const enforcer = definition?.enforcer;
      if ((provider === "aws") !== (enforcer === "aws_scp")) continue;
      if (provider === "aws" && definition && !scpByBundle.has(row.bundleId)) {
        try {
          const compiled = compileScp({
            definition,
            definitions: all,
            parameters: row.parameters as Record<string, unknown>,
            mode: row.mode as "PREVENT" | "ALERT",
            key: row.key,
            name: row.name,
            scopes: (row.scopes as StoredScope[]).map((s) => ({ id: s.externalId })),
            excludedScopes: (row.excludedScopes as StoredScope[]).map((s) => ({ id: s.externalId })),
            waivers: [],
            waiverLinkBaseUrl: "",
            now: new Date(),
          });
          scpByBundle.set(row.bundleId, {
            id: row.nativeId ?? row.bundleId,
            arn: "",
            name: compiled.name,
            document: compiled.content,
          });
        } catch (error) {
          logger.warn(
            { bundleId: row.bundleId, err: (error as Error).message },
            "bundle does not compile; its alerts are not evaluated",
          );
          scpByBundle.set(row.bundleId, undefined);
        }
      }
      infos.push({
        id: row.id,
        bundleId: row.bundleId,
        key: row.key,
        name: row.name,
        namespace: row.namespace,
        mode: row.mode === "ALERT" ? "ALERT" : "PREVENT",
        nativeId: row.nativeId,
        scopeExternalId: row.scopeExternalId,
        excludedScopes: (row.excludedScopes as StoredScope[]).map((s) => s.externalId),
        affectedResourceTypes: row.affectedResourceTypes,
        scp: scpByBundle.get(row.bundleId),
      });
    }
    const waiverRows =
      infos.length === 0
        ? []
        : await db
            .select()
            .from(waivers)
            .where(
              and(
                inArray(
                  waivers.deploymentId,
                  infos.map((d) => d.id),
                ),
                inArray(waivers.status, ["ACTIVE", "EXPIRED", "CANCELLED"]),
              ),
            );
    const waiverInfos: WaiverInfo[] = waiverRows
      .filter((w) => w.expiresAt)
      .map((w) => {
        const expires = w.expiresAt as Date;
        const ended = w.status === "CANCELLED" && w.updatedAt < expires ? w.updatedAt : expires;
        return {
          deploymentId: w.deploymentId,
          from: w.reviewedAt ?? w.createdAt,
          until: ended,
          scope: w.scope,
          resource: w.resource,
          principalArn: w.principalArn ?? null,
        };
      });
    const nodes = await db
      .select({ externalId: hierarchyNodes.externalId, parent: hierarchyNodes.parentExternalId })
      .from(hierarchyNodes)
      .where(eq(hierarchyNodes.connectorId, connector.id));
    const parentOf = new Map(nodes.map((n) => [n.externalId, n.parent]));
    const ancestorsOf = (scopeId: string) => {
      const chain: string[] = [];
      let current: string | null | undefined = scopeId;
      while (current && chain.length < 32 && !chain.includes(current)) {
        chain.push(current);
        current = parentOf.get(current);
      }
      return chain;
    };
    const ctx: ClassifyContext = {
      tenantId: connector.tenantId,
      provider,
      deployments: infos,
      waivers: waiverInfos,
      ancestorsOf,
      consoleLinks: connector.kind !== "sandbox",
    };
    return ctx;
  }

  /** Drift for new non-compliance, resolution for drift that is compliant again. */
  async function complianceEvents(
    ctx: ClassifyContext,
    findings: ComplianceFinding[],
    fresh: NewPolicyEvent[],
  ) {
    if (findings.length === 0) return { events: [] as NewPolicyEvent[], resolved: [] as ComplianceFinding[] };
    const open = await db
      .select({
        deploymentId: resourceEvents.deploymentId,
        resource: resourceEvents.resourceExternalId,
        type: resourceEvents.type,
        at: resourceEvents.lastOccurredAt,
      })
      .from(resourceEvents)
      .where(
        and(
          eq(resourceEvents.tenantId, ctx.tenantId),
          inArray(resourceEvents.deploymentId, [...new Set(findings.map((f) => f.deployment.id))]),
        ),
      );
    const openDrift = new Map(
      open
        .filter((r) => r.type === "DRIFT")
        .map((r) => [`${r.deploymentId}\u0000${r.resource.toLowerCase()}`, r.at]),
    );
    // A request that Azure denied or audited leaves a NonCompliant state at the same moment:
    // that is the prevention or alert already recorded, not a resource drifting.
    const oldest = Math.min(...findings.map((f) => f.time.getTime())) - DRIFT_NEAR_REQUEST_MS;
    const requests = await db
      .select({
        deploymentId: policyEvents.deploymentId,
        resource: policyEvents.resourceExternalId,
        at: policyEvents.occurredAt,
      })
      .from(policyEvents)
      .where(
        and(
          eq(policyEvents.tenantId, ctx.tenantId),
          inArray(policyEvents.type, ["PREVENTION", "ALERT"]),
          gte(policyEvents.occurredAt, new Date(oldest)),
        ),
      );
    const requestTimes = new Map<string, number[]>();
    for (const r of [
      ...requests,
      ...fresh.map((e) => ({
        deploymentId: e.deploymentId ?? null,
        resource: e.resourceExternalId ?? null,
        at: e.occurredAt,
      })),
    ]) {
      if (!r.resource || !r.deploymentId) continue;
      const key = `${r.deploymentId}\u0000${r.resource.toLowerCase()}`;
      requestTimes.set(key, [...(requestTimes.get(key) ?? []), r.at.getTime()]);
    }
    const events: NewPolicyEvent[] = [];
    const resolved: ComplianceFinding[] = [];
    for (const finding of findings) {
      const key = `${finding.deployment.id}\u0000${finding.resourceId.toLowerCase()}`;
      const driftSince = openDrift.get(key);
      if (finding.compliant) {
        if (driftSince && driftSince.getTime() <= finding.time.getTime()) {
          events.push(complianceEvent(finding, ctx, "RESOLVED"));
          resolved.push(finding);
        }
        continue;
      }
      if (driftSince) continue;
      const near = (requestTimes.get(key) ?? []).some(
        (t) => Math.abs(t - finding.time.getTime()) <= DRIFT_NEAR_REQUEST_MS,
      );
      if (!near) events.push(complianceEvent(finding, ctx, "DRIFT"));
    }
    return { events, resolved };
  }

  async function fetchOnce(connectorId: string): Promise<FetchOutcome> {
    const [connector] = await db.select().from(connectors).where(eq(connectors.id, connectorId)).limit(1);
    if (!connector) return { records: 0, events: 0, states: 0 };
    const provider = runtime.providerFor(connector);
    const page = await provider.readAuditEvents(connector.eventCursor ?? undefined, {
      // A new connector starts from the day before it was added, not the provider's whole retention.
      since: new Date(connector.createdAt.getTime() - 86_400_000),
    });
    const states = await provider.readCompliance();
    const ctx = await loadContext(connector, provider.provider);
    const fresh =
      ctx.deployments.length === 0 ? [] : page.records.flatMap((record) => classifyAudit(record, ctx));
    const findings = latestCompliance(states, ctx);
    const compliance = await complianceEvents(ctx, findings, fresh);
    const now = new Date();
    const written = await db.transaction(async (tx) => {
      const count = await writeEvents(tx, [...fresh, ...compliance.events]);
      for (const finding of compliance.resolved) {
        await tx
          .update(policyEvents)
          .set({ type: "HISTORICAL_DRIFT" })
          .where(
            and(
              eq(policyEvents.tenantId, ctx.tenantId),
              eq(policyEvents.deploymentId, finding.deployment.id),
              eq(policyEvents.resourceExternalId, finding.resourceId),
              eq(policyEvents.type, "DRIFT"),
            ),
          );
      }
      await recordObservations(tx, ctx.tenantId, findings);
      // The cursor moves in the same transaction as the writes: a crash repeats the batch, and
      // the provider ids make the repeat a no-op.
      await tx
        .update(connectors)
        .set({ eventCursor: page.cursor, eventsFetchedAt: now })
        .where(eq(connectors.id, connector.id));
      return count;
    });
    return { records: page.records.length, events: written, states: states.length };
  }

  async function recordObservations(tx: Database, tenantId: string, findings: ComplianceFinding[]) {
    if (findings.length === 0) return;
    for (let i = 0; i < findings.length; i += 1000) {
      await tx
        .insert(complianceObservations)
        .values(
          findings.slice(i, i + 1000).map((f) => ({
            tenantId,
            bundleId: f.deployment.bundleId,
            deploymentId: f.deployment.id,
            resourceExternalId: f.resourceId,
            day: f.time.toISOString().slice(0, 10),
            compliant: f.compliant,
            observedAt: f.time,
          })),
        )
        .onConflictDoUpdate({
          target: [
            complianceObservations.deploymentId,
            complianceObservations.resourceExternalId,
            complianceObservations.day,
          ],
          set: { compliant: sql`excluded.compliant`, observedAt: sql`excluded.observed_at` },
          setWhere: sql`${complianceObservations.observedAt} <= excluded.observed_at`,
        });
    }
  }

  function fetchConnector(connectorId: string): Promise<FetchOutcome> {
    const previous = running.get(connectorId) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => fetchOnce(connectorId));
    running.set(connectorId, next);
    void next
      .finally(() => {
        if (running.get(connectorId) === next) running.delete(connectorId);
      })
      .catch(() => {});
    return next;
  }

  async function rebuildResourceEvents(tenantId: string): Promise<void> {
    await db.execute(sql`
      update resource_events re set
        last_event_id = latest.id, type = latest.type, last_occurred_at = latest.occurred_at, updated_at = now()
      from (
        select distinct on (deployment_id, resource_external_id) id, deployment_id, resource_external_id, type, occurred_at
        from policy_events
        where tenant_id = ${tenantId} and deployment_id is not null and resource_external_id is not null
        order by deployment_id, resource_external_id, occurred_at desc, id desc
      ) latest
      where re.tenant_id = ${tenantId} and re.deployment_id = latest.deployment_id
        and re.resource_external_id = latest.resource_external_id`);
  }

  async function finishJob(
    jobId: string | undefined,
    outcome: { ok: true; result: object } | { ok: false; error: string },
  ) {
    if (!jobId) return;
    await db
      .update(jobRows)
      .set(
        outcome.ok
          ? { status: "SUCCEEDED", progress: 100, result: outcome.result, finishedAt: new Date() }
          : { status: "FAILED", error: outcome.error, finishedAt: new Date() },
      )
      .where(eq(jobRows.id, jobId));
  }

  await jobs.register<FetchJobData>({
    name: FETCH_JOB,
    retryLimit: 3,
    retryDelaySeconds: 5,
    expireInSeconds: 600,
    concurrency: 2,
    handler: async ({ data, retryCount }) => {
      try {
        if (data.resync && data.tenantId) await rebuildResourceEvents(data.tenantId);
        const outcome = data.connectorId
          ? await fetchConnector(data.connectorId)
          : { records: 0, events: 0, states: 0 };
        await finishJob(data.jobId, { ok: true, result: outcome });
      } catch (error) {
        if (retryCount >= 3) await finishJob(data.jobId, { ok: false, error: (error as Error).message });
        throw error;
      }
    },
  });
  await jobs.register<object>({
    name: FETCH_ALL_JOB,
    retryLimit: 0,
    concurrency: 1,
    handler: async () => {
      const all = await db.select({ id: connectors.id }).from(connectors);
      for (const row of all) await jobs.send<FetchJobData>(FETCH_JOB, { connectorId: row.id });
    },
  });
  await jobs.schedule(FETCH_ALL_JOB, FETCH_CRON);

  return {
    fetchConnector,
    rebuildResourceEvents,
    async requestFetch({ tenantId, connectorIds, createdBy, kind, resync }) {
      const [row] = await db
        .insert(jobRows)
        .values({ tenantId, kind, status: "QUEUED", createdBy, total: connectorIds.length })
        .returning({ id: jobRows.id });
      if (!row) throw new Error("job insert returned nothing");
      if (connectorIds.length === 0) {
        if (resync) await rebuildResourceEvents(tenantId);
        await finishJob(row.id, { ok: true, result: { records: 0, events: 0, states: 0 } });
        return row.id;
      }
      for (const [i, connectorId] of connectorIds.entries()) {
        // The user's job row is finished by the last connector's fetch.
        await jobs.send<FetchJobData>(FETCH_JOB, {
          connectorId,
          tenantId,
          resync: resync && i === 0,
          jobId: i === connectorIds.length - 1 ? row.id : undefined,
        });
      }
      return row.id;
    },
  };
}
