import { deriveInitiatives } from "@palisade/policy-engine/catalogue/initiatives";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { cloudTrailRecordOf } from "../../cloud/aws/cloudtrail-events";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { createKeyedLock } from "../../lib/keyed-lock";
import type { Logger } from "../../logger";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import { loadTenantCatalogue } from "../policy-definition/tenant-catalogue";
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
  type Provider,
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the rules need of an audit record; undefined for calls the cloud refused (a guardrail held). */
export function activityOf(provider: Provider, record: AuditRecord): ActivityRecord | undefined {
  if (record.errorCode || !record.scopeId) return undefined;
  const raw = isObject(record.raw) ? record.raw : {};
  let params: Record<string, unknown> = {};
  let resource = "";
  if (provider === "aws") {
    // A record that is not JSON still names its action and account.
    const detail = cloudTrailRecordOf(raw);
    if (isObject(detail.requestParameters)) params = detail.requestParameters;
    const first = Array.isArray(detail.resources) ? detail.resources[0] : undefined;
    if (isObject(first) && typeof first.ARN === "string") resource = first.ARN;
  } else if (typeof raw.resourceId === "string") {
    resource = raw.resourceId;
  }
  return {
    provider,
    action: record.action,
    scopeId: record.scopeId,
    principal: record.principal ?? "",
    resource,
    params,
    time: record.time,
  };
}

export function createRecommendationComputer(deps: RecommendationComputeDeps): RecommendationComputer {
  const { db, catalogue, runtime, logger } = deps;
  const exclusive = createKeyedLock();

  /**
   * What was read of each connector's audit stream: the window's records and where the read
   * stopped, so a recomputation reads only what arrived since (the provider's LookupEvents is
   * rate limited and shared with the event pipeline and deployments).
   */
  const streams = new Map<string, { cursor: string; records: ActivityRecord[] }>();

  /** The connected clouds' recent audit streams; a cloud that cannot be read is skipped and logged. */
  async function readActivity(tenantId: string, now: Date): Promise<ActivityRecord[]> {
    const since = new Date(now.getTime() - ACTIVITY_WINDOW_DAYS * DAY_MS);
    const out: ActivityRecord[] = [];
    for (const connector of await readTenantConnectors(db, tenantId)) {
      try {
        const provider = runtime.providerFor(connector);
        const known = streams.get(connector.id);
        // Reads from where the last computation stopped, or the window's start, without touching
        // the connector's own cursor (the event pipeline's).
        const read = await provider.readAuditEvents(known?.cursor, { since });
        const records = [
          ...(known?.records ?? []),
          ...read.records.flatMap((record) => activityOf(provider.provider, record) ?? []),
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
          provider: definition.enforcer === "aws_scp" ? "aws" : "azure",
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
