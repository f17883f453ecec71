import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import { deriveInitiatives } from "@palisade/policy-engine/catalogue/initiatives";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { createKeyedLock } from "../../lib/keyed-lock";
import type { Logger } from "../../logger";
import { type ConnectorRuntime, connectorProvider } from "../connector/connector-api";
import { loadStoredRequests, resourceOf, type StoredRequest } from "../event/event-api";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import {
  readDrift,
  readLiveDeployments,
  readScopeNodes,
  readTenantConnectors,
  readWaiverCounts,
} from "./recommendation-facts-repository";
import { type FindingsOutcome, saveFindings } from "./recommendation-repository";
import {
  ACTIVITY_WINDOW_DAYS,
  type ActivityRecord,
  computeFindings,
  type PolicyInfo,
  WAIVER_WINDOW_DAYS,
} from "./recommendation-rules";

const DAY_MS = 86_400_000;

export interface RecommendationComputeDeps {
  db: Database;
  catalogue: Catalogue;
  runtime: ConnectorRuntime;
  logger: Logger;
}

export interface RecommendationComputer {
  /** Recomputes one tenant's recommendations; one computation per tenant at a time in this process. */
  compute(tenantId: string): Promise<FindingsOutcome>;
}

/** What the rules need of an Activity Log record; undefined for calls Azure refused. */
export function activityOf(record: AuditRecord): ActivityRecord | undefined {
  if (record.errorCode || !record.scopeId) return undefined;
  const raw = record.raw as { resourceId?: unknown } | null;
  return {
    provider: "azure",
    action: record.action,
    scopeId: record.scopeId,
    principal: record.principal ?? "",
    resource: typeof raw?.resourceId === "string" ? raw.resourceId : "",
    params: {},
    time: record.time,
  };
}

/**
 * An AWS request the event fetch stored (from the organisation trail, or LookupEvents), as the
 * rules read it; undefined for requests AWS refused (a guardrail held). The management account's
 * requests are not stored: no SCP could guard it.
 */
export function storedActivityOf(stored: StoredRequest): ActivityRecord | undefined {
  if (stored.refused) return undefined;
  const { request } = stored;
  const resource = resourceOf(request);
  return {
    provider: "aws",
    action: request.action,
    scopeId: request.account,
    principal: request.principalArn,
    resource: resource === "*" ? "" : resource,
    params: Object.assign({}, ...request.checks.map((check) => check.context)),
    time: stored.lastSeenAt,
    count: stored.count,
  };
}

export function createRecommendationComputer(deps: RecommendationComputeDeps): RecommendationComputer {
  const { db, catalogue, runtime, logger } = deps;
  const exclusive = createKeyedLock();

  /**
   * What was read of each Azure connector's Activity Log: the window's records and where the read
   * stopped, so a recomputation reads only what arrived since (without touching the connector's
   * own cursor, the event pipeline's).
   */
  const streams = new Map<string, { cursor: string; records: ActivityRecord[] }>();

  /** The connected clouds' recent activity; a cloud that cannot be read is skipped and logged. */
  async function readActivity(tenantId: string, now: Date): Promise<ActivityRecord[]> {
    const since = new Date(now.getTime() - ACTIVITY_WINDOW_DAYS * DAY_MS);
    const out: ActivityRecord[] = [];
    for (const connector of await readTenantConnectors(db, tenantId)) {
      try {
        if (connectorProvider(connector) === "aws") {
          // AWS is read through the event fetch, which stores every request it reads.
          const stored = await loadStoredRequests(db, connector, since.toISOString().slice(0, 10));
          out.push(...stored.flatMap((s) => storedActivityOf(s) ?? []));
          continue;
        }
        const provider = runtime.providerFor(connector);
        const known = streams.get(connector.id);
        const read = await provider.readAuditEvents(known?.cursor, { since });
        const records = [
          ...(known?.records ?? []),
          ...read.records.flatMap((record) => activityOf(record) ?? []),
        ].filter((record) => record.time >= since);
        streams.set(connector.id, { cursor: read.cursor, records });
        out.push(...records);
      } catch (error) {
        logger.warn(
          { component: "recommendations", connectorId: connector.id, error: (error as Error).message },
          "audit stream not readable for recommendations",
        );
      }
    }
    return out;
  }

  async function computeOnce(tenantId: string): Promise<FindingsOutcome> {
    const now = new Date();
    const view = await loadTenantCatalogue(db, catalogue, tenantId);
    const policies = new Map<string, PolicyInfo>(
      view.definitions.map(({ definition }) => [
        definition.slug,
        {
          slug: definition.slug,
          provider: providerOfEnforcer(definition.enforcer),
          name: definition.display_name,
        },
      ]),
    );
    const frameworks = deriveInitiatives({
      ...catalogue,
      definitions: view.definitions.map((entry) => entry.definition),
    }).map((initiative) => ({ slug: initiative.slug, name: initiative.name, clauses: initiative.clauses }));
    const [nodes, deployments, drift, waivers, activity] = await Promise.all([
      readScopeNodes(db, tenantId),
      readLiveDeployments(db, tenantId),
      readDrift(db, tenantId),
      readWaiverCounts(db, tenantId, new Date(now.getTime() - WAIVER_WINDOW_DAYS * DAY_MS)),
      readActivity(tenantId, now),
    ]);
    const findings = computeFindings({ nodes, policies, deployments, activity, drift, waivers, frameworks });
    const outcome = await saveFindings(db, tenantId, findings);
    logger.info({ component: "recommendations", tenantId, ...outcome }, "recommendations computed");
    return outcome;
  }

  return { compute: (tenantId) => exclusive(tenantId, () => computeOnce(tenantId)) };
}
