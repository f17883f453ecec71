import { createHash } from "node:crypto";
import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { enqueueImpactPreview } from "../../jobs/impact-preview-job";
import type { JobQueue } from "../../jobs/job-queue";
import {
  awsManagementAccountOf,
  type ConnectorRuntime,
  findConnector,
  findHierarchyNodes,
} from "../connector/connector-api";
import { REQUEST_SUMMARY_DAYS } from "../event/event-api";
import { type Compiled, compile } from "./bundle-compile";
import { parseParameters, refuseManagementAccount, resolveScopes } from "./bundle-input";
import type { StoredScope } from "./bundle-repository";
import { checkCompiles } from "./compile-check";
import {
  findImpactPreview,
  findImpactPreviewByKey,
  type ImpactPreviewRow,
  insertImpactPreview,
  requeueImpactPreview,
} from "./impact-preview-repository";
import type { TenantReads } from "./tenant-reads";

export const DEFAULT_PERIOD_DAYS = 30;
/** As far back as requests are stored. */
export const MAX_PERIOD_DAYS = REQUEST_SUMMARY_DAYS;
/** A finished preview is answered again for this long; after that the same request replays anew. */
export const PREVIEW_FRESH_MS = 15 * 60_000;

export interface ImpactPreviewDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  publicUrl: string;
}

export interface PreviewRequest {
  definition: Definition;
  parameters: Record<string, unknown> | undefined;
  scopes: readonly Scope[];
  excludedScopes: readonly Scope[];
  periodDays: number;
  refresh: boolean;
  createdBy: string;
}

/** Canonical JSON (object keys sorted), so that equal requests hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function previewCacheKey(input: {
  policySlug: string;
  parameters: Record<string, unknown>;
  scopes: StoredScope[];
  excluded: StoredScope[];
  periodDays: number;
}): string {
  const ids = (list: StoredScope[]) => list.map((s) => `${s.connectorId}/${s.externalId}`).sort();
  return createHash("sha256")
    .update(
      canonical({
        policy: input.policySlug,
        parameters: input.parameters,
        scopes: ids(input.scopes),
        excluded: ids(input.excluded),
        days: input.periodDays,
      }),
    )
    .digest("hex");
}

const isFresh = (row: ImpactPreviewRow, now: number) =>
  row.status === "SUCCEEDED" && row.finishedAt !== null && now - row.finishedAt.getTime() < PREVIEW_FRESH_MS;

/**
 * Answers the preview of this policy, parameters, scopes and period: the one running or
 * recently finished, else a new replay queued in the background.
 */
export async function startImpactPreview(
  deps: ImpactPreviewDeps,
  tenant: TenantReads,
  request: PreviewRequest,
): Promise<ImpactPreviewRow> {
  const { db } = deps;
  const { definition } = request;
  const parameters = parseParameters(definition, request.parameters);
  const nodes = await findHierarchyNodes(db, tenant.tenantId, [
    ...request.scopes.map((s) => s.externalId.trim()),
    ...request.excludedScopes.map((s) => s.externalId.trim()),
  ]);
  const { scopes, excluded, connectorId } = resolveScopes(
    definition,
    request.scopes,
    request.excludedScopes,
    nodes,
  );
  refuseManagementAccount(scopes, await awsManagementAccountOf(deps, tenant.tenantId, connectorId));
  // What cannot deploy cannot be previewed either; the same message as on deploy.
  await checkCompiles(deps, tenant, definition, {
    parameters,
    mode: "PREVENT",
    name: definition.display_name,
    scopes,
    excluded,
  });
  const periodDays = Math.min(request.periodDays || DEFAULT_PERIOD_DAYS, MAX_PERIOD_DAYS);
  const cacheKey = previewCacheKey({ policySlug: definition.slug, parameters, scopes, excluded, periodDays });
  const now = Date.now();
  const existing = await findImpactPreviewByKey(db, tenant.tenantId, cacheKey);
  if (existing) {
    const running = existing.status === "QUEUED" || existing.status === "RUNNING";
    if (running || (!request.refresh && isFresh(existing, now))) return existing;
    if (await requeueImpactPreview(db, tenant.tenantId, existing.id, request.createdBy))
      await enqueueImpactPreview(deps.jobs, { tenantId: tenant.tenantId, previewId: existing.id });
    return (await findImpactPreview(db, tenant.tenantId, existing.id)) ?? existing;
  }
  const inserted = await insertImpactPreview(db, {
    tenantId: tenant.tenantId,
    cacheKey,
    policySlug: definition.slug,
    provider: providerOfEnforcer(definition.enforcer),
    connectorId,
    parameters,
    scopes,
    excludedScopes: excluded,
    periodDays,
    createdBy: request.createdBy,
  });
  if (!inserted) {
    // Another request for the same preview won the race; answer its row.
    const raced = await findImpactPreviewByKey(db, tenant.tenantId, cacheKey);
    if (!raced) throw new Error("impact preview vanished after a conflicting insert");
    return raced;
  }
  await enqueueImpactPreview(deps.jobs, { tenantId: tenant.tenantId, previewId: inserted.id });
  return inserted;
}

/** What the replay needs besides the database: the catalogue and the connectors' clouds. */
export interface ReplayDeps {
  db: Database;
  catalogue: Catalogue;
  runtime: ConnectorRuntime;
}

/** The candidate guardrail compiled as it would deploy (PREVENT, no waivers). */
export function compileCandidate(
  row: ImpactPreviewRow,
  definition: Definition,
  all: Map<string, Definition>,
): Compiled {
  return compile({
    definition,
    definitions: all,
    parameters: row.parameters as Record<string, unknown>,
    mode: "PREVENT",
    key: "0000000",
    name: definition.display_name,
    scopes: (row.scopes as StoredScope[]).map((s) => ({ id: s.externalId, displayName: s.name })),
    excludedScopes: (row.excludedScopes as StoredScope[]).map((s) => ({
      id: s.externalId,
      displayName: s.name,
    })),
    waivers: [],
    waiverLinkBaseUrl: "",
    now: new Date(),
    // The replay reads the statements; the size against the connector's quota was checked when the
    // preview was asked for.
    scpMaxCharacters: Number.MAX_SAFE_INTEGER,
  });
}

export async function connectorOfPreview(db: Database, row: ImpactPreviewRow) {
  return findConnector(db, row.tenantId, row.connectorId);
}

/** Records newest first, so that samples show the latest denials whatever the provider's order. */
export const newestFirst = (records: AuditRecord[]) =>
  [...records].sort((a, b) => b.time.getTime() - a.time.getTime());
