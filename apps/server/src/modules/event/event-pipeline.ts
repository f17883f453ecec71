import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { EventFetchOutcome, EventFetchRunner } from "../../jobs/event-fetch-job";
import { finishJobRecord } from "../../jobs/job-record-repository";
import { createKeyedLock } from "../../lib/keyed-lock";
import type { Logger } from "../../logger";
import {
  type ConnectorRuntime,
  describeCloudFailure,
  READ_NAMES,
  type ReadFailures,
  SIGN_IN_FAILURES,
  saveEventCursor,
  saveReadFailures,
  saveSignInFailure,
  signInFailure,
} from "../connector/connector-api";
import { classifyAudit } from "./classify";
import { type ComplianceFinding, complianceEvent, latestCompliance } from "./classify-compliance";
import type { ClassifyContext } from "./classify-context";
import { recordObservations } from "./compliance-observation-repository";
import { driftWindow, withinDriftWindow } from "./drift-window";
import { listRequestEventsSince, markDriftHistorical } from "./event-repository";
import { findConnectorAnyTenant } from "./fetch-repository";
import { loadClassifyContext } from "./load-classify-context";
import type { NewPolicyEvent } from "./policy-event";
import { writeEvents } from "./record-event";
import { storeRequests } from "./request-summary";
import { listResourceEventStates, rebuildResourceEvents } from "./resource-event-repository";
import { fetchOrganizationTrail } from "./trail-fetch";

/** Queue of the per-connector event fetch, for modules that ask for a fetch after a change. */

export type FetchOutcome = EventFetchOutcome;

export interface EventPipeline extends EventFetchRunner {
  /** Reads one connector's audit stream and compliance states now and stores what they show. */
  fetchConnector(connectorId: string): Promise<FetchOutcome>;
  /** Re-derives each resource event's newest event from the stored events (dismissed flags kept). */
  rebuildResourceEvents(tenantId: string): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * The event pipeline: a fetch per connector reads the provider's audit stream from the
 * connector's cursor and its compliance states, classifies them against Palisade's deployments
 * and waivers, writes the events idempotently and only then moves the cursor, in one transaction.
 */
export function createEventPipeline(deps: {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  logger: Logger;
}): EventPipeline {
  const { db, runtime } = deps;
  // One fetch per connector at a time in this process; a second request waits for the first
  // and then runs itself, so it sees records that arrived meanwhile.
  const exclusive = createKeyedLock();

  /**
   * Drift for new non-compliance, resolution for drift that is compliant again.
   *
   * A non-compliant state is drift only when no request of the resource near it is listed, and the
   * Activity Log lists a request only some minutes after it happened (`submissionTimestamp`, see
   * cloud/azure/azure-audit.ts), while the state can be there at once. So a state is judged only
   * once every request that could be its own has had the time to be listed: until then it waits,
   * and the next fetch, which reads the states whole again, judges it.
   */
  async function complianceEvents(
    ctx: ClassifyContext,
    findings: ComplianceFinding[],
    fresh: NewPolicyEvent[],
    /**
     * What the Activity Log's read covers: every request that happened `lagMs` before `listedAt`
     * (the provider's time), in every subscription but the `unread` ones (their resource ids'
     * prefix). Where it covers nothing, a request near a new non-compliance is unknown: drift waits.
     */
    audit: { listedAt: Date; lagMs: number; unread: string[] } | undefined,
  ) {
    if (findings.length === 0) return { events: [] as NewPolicyEvent[], resolved: [] as ComplianceFinding[] };
    const open = await listResourceEventStates(db, ctx.tenantId, [
      ...new Set(findings.map((f) => f.deployment.id)),
    ]);
    const openDrift = new Map(
      open
        .filter((r) => r.type === "DRIFT")
        .map((r) => [`${r.deploymentId}\u0000${r.resource.toLowerCase()}`, r.at]),
    );
    // A request that Azure denied or audited leaves a NonCompliant state at the same moment:
    // that is the prevention or alert already recorded, not a resource drifting.
    const window = driftWindow(ctx.provider);
    const oldest = Math.min(...findings.map((f) => f.time.getTime())) - window.afterMs;
    const requests = await listRequestEventsSince(db, ctx.tenantId, new Date(oldest));
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
      const resource = finding.resourceId.toLowerCase();
      if (driftSince || !audit || audit.unread.some((subscription) => resource.startsWith(subscription)))
        continue;
      const near = (requestTimes.get(key) ?? []).some((t) =>
        withinDriftWindow(window, t, finding.time.getTime()),
      );
      // The latest request that could be this state's own, and when it is listed at the latest.
      const allListedAt = finding.time.getTime() + window.beforeMs + audit.lagMs;
      if (!near && audit.listedAt.getTime() >= allListedAt)
        events.push(complianceEvent(finding, ctx, "DRIFT"));
    }
    return { events, resolved };
  }

  async function fetchOnce(connectorId: string): Promise<FetchOutcome> {
    const connector = await findConnectorAnyTenant(db, connectorId);
    if (!connector) return { records: 0, events: 0, states: 0, failures: [] };
    const provider = runtime.providerFor(connector);
    if (provider.provider === "aws" && provider.trail)
      return fetchOrganizationTrail(deps, connector, provider.trail);
    const ctx = await loadClassifyContext(deps, connector, provider.provider);
    // The two reads are independent: one failing leaves the other's records to be stored.
    const [audit, compliance] = await Promise.allSettled([
      provider.readAuditEvents(connector.eventCursor ?? undefined, {
        // A new connector starts from the day before it was added, not the provider's whole retention.
        since: new Date(connector.createdAt.getTime() - DAY_MS),
      }),
      provider.readCompliance({
        assignmentIds: ctx.deployments.flatMap((d) => (d.nativeId ? [d.nativeId] : [])),
      }),
    ]);
    const page = audit.status === "fulfilled" ? audit.value : undefined;
    const states = compliance.status === "fulfilled" ? compliance.value : [];
    const failures: ReadFailures = {};
    if (audit.status === "rejected") failures.activityLog = describeCloudFailure(audit.reason);
    else if (audit.value.unread) failures.activityLog = audit.value.unread;
    if (compliance.status === "rejected") failures.compliance = describeCloudFailure(compliance.reason);
    // A refused credential stops every read: the connector itself shows it, in ERROR.
    const signIn = [audit, compliance]
      .map((read) => (read.status === "rejected" ? signInFailure(read.reason) : undefined))
      .find(Boolean);
    for (const [read, reason] of Object.entries(failures)) {
      deps.logger.warn({ connectorId, read, err: reason }, "event fetch read failed");
    }
    const fresh =
      !page || ctx.deployments.length === 0
        ? []
        : page.records.flatMap((record) => classifyAudit(record, ctx));
    const findings = latestCompliance(states, ctx);
    const complianceOut = await complianceEvents(
      ctx,
      findings,
      fresh,
      page && {
        listedAt: page.listedAt ?? new Date(),
        lagMs: provider.provider === "azure" ? provider.activityLogLagSeconds * 1_000 : 0,
        unread: (page.unreadScopes ?? []).map((id) => `/subscriptions/${id.toLowerCase()}/`),
      },
    );
    const now = new Date();
    const written = await db.transaction(async (tx) => {
      const count = await writeEvents(tx, [...fresh, ...complianceOut.events]);
      // Every request, classified or not, is what a preview of a guardrail not deployed yet reads.
      if (provider.provider === "aws" && page)
        await storeRequests(tx, connector, page.records, ctx.managementAccountId, now);
      for (const finding of complianceOut.resolved) {
        await markDriftHistorical(tx, ctx.tenantId, finding.deployment.id, finding.resourceId);
      }
      await recordObservations(
        tx,
        ctx.tenantId,
        findings.map((f) => ({
          bundleId: f.deployment.bundleId,
          deploymentId: f.deployment.id,
          resourceExternalId: f.resourceId,
          compliant: f.compliant,
          observedAt: f.time,
        })),
      );
      // The cursor moves in the same transaction as the writes: a crash repeats the batch, and
      // the provider ids make the repeat a no-op. An Activity Log that was not read keeps it.
      if (page) await saveEventCursor(tx, connector.tenantId, connector.id, page.cursor, now);
      await saveReadFailures(tx, connector.tenantId, connector.id, signIn ? {} : failures);
      await saveSignInFailure(tx, connector.tenantId, connector.id, signIn, Object.values(SIGN_IN_FAILURES));
      return count;
    });
    return {
      records: page?.records.length ?? 0,
      events: written,
      states: states.length,
      failures: Object.entries(failures).map(
        ([read, reason]) => `${READ_NAMES[read as keyof ReadFailures]}: ${reason}`,
      ),
    };
  }

  return {
    fetchConnector: (connectorId) => exclusive(connectorId, () => fetchOnce(connectorId)),
    rebuildResourceEvents: (tenantId) => rebuildResourceEvents(db, tenantId),
    finishRequest: (tenantId, jobId, outcome) => finishJobRecord(db, tenantId, jobId, outcome),
  };
}
