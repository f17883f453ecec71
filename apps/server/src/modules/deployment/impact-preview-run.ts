import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { CloudProvider } from "../../cloud/cloud-provider";
import type { ImpactPreviewPayload } from "../../jobs/impact-preview-job";
import type { Logger } from "../../logger";
import { type ConnectorRow, describeCloudFailure } from "../connector/connector-api";
import {
  type ClassifyContext,
  listClassifiedDeployments,
  loadClassifyContext,
  loadStoredRequests,
} from "../event/event-api";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import type { StoredScope } from "./bundle-repository";
import { compileCandidate, connectorOfPreview, newestFirst, type ReplayDeps } from "./impact-preview";
import {
  findImpactPreview,
  hierarchyNames,
  type ImpactPreviewRow,
  updateImpactPreview,
} from "./impact-preview-repository";
import {
  createTally,
  fieldsReadBy,
  type ImpactTally,
  replayActivityRecord,
  replayStoredRequest,
  topCounts,
} from "./impact-replay";

const DAY_MS = 86_400_000;
const PROGRESS_INTERVAL_MS = 250;

/** The stored result of a finished preview (impact_previews.result). */
export interface ImpactResult {
  denied: number;
  alreadyDenied: number;
  notEvaluable: number;
  /** Records under the scopes that the rule was evaluated on. */
  inScope: number;
  nonCompliantResources: number;
  distinctPrincipals: number;
  topActions: { value: string; count: number }[];
  /** The actions of the requests that could not be evaluated. */
  topNotEvaluable?: { value: string; count: number }[];
  topPrincipals: { value: string; count: number }[];
  topScopes: { value: string; name: string; count: number }[];
  samples: {
    eventId: string;
    time: string;
    action: string;
    principal: string;
    scopeId: string;
    scopeName: string;
    resource: string;
  }[];
  limitations: string[];
}

const AWS_LIMITATIONS = [
  "Only the events the organisation trail records are replayed: data events (S3 object reads and writes, Lambda invocations) only where the trail logs them.",
  "Requests made in the management account are not counted: service control policies never restrict it.",
  "Condition keys that CloudTrail does not record (principal and resource tags, source VPC, organisation paths, parameters a launch template supplies) are not guessed: a request whose guardrail reads one is counted as not evaluable.",
];
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export interface PreviewRunDeps extends ReplayDeps {
  logger: Logger;
  /** Reads and stores the connector's newest records (the event fetch), so the preview sees them. */
  catchUp?: (connectorId: string) => Promise<unknown>;
}

/** Fills the preview row: reads the audit stream a page at a time, replays it, stores the result. */
export async function runImpactPreview(deps: PreviewRunDeps, payload: ImpactPreviewPayload): Promise<void> {
  const { db } = deps;
  const row = await findImpactPreview(db, payload.tenantId, payload.previewId);
  if (!row || row.status === "SUCCEEDED" || row.status === "FAILED") return;
  const startedAt = new Date();
  const since = new Date(startedAt.getTime() - row.periodDays * DAY_MS);
  await updateImpactPreview(db, row.tenantId, row.id, {
    status: "RUNNING",
    startedAt,
    pagesRead: 0,
    recordsEvaluated: 0,
    periodStart: since,
    periodEnd: startedAt,
  });
  const fail = (error: string) =>
    updateImpactPreview(db, row.tenantId, row.id, { status: "FAILED", error, finishedAt: new Date() });

  const connector = await connectorOfPreview(db, row);
  if (!connector) return fail("The connector of these scopes was removed; add it again, then preview.");
  const view = await loadTenantCatalogue(db, deps.catalogue, row.tenantId);
  const all = new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition]));
  const definition = all.get(row.policySlug);
  if (!definition) return fail(`The policy ${row.policySlug} is no longer in this tenant's catalogue.`);

  const tally = createTally();
  let pages = 0;
  let records = 0;
  let progressWrittenAt = 0;
  const progress = async (read: number) => {
    pages += 1;
    records += read;
    // The row's counts are the progress the page polls; a write a page would cost more than
    // the replay of that page, so they are written at most every PROGRESS_INTERVAL_MS.
    if (Date.now() - progressWrittenAt < PROGRESS_INTERVAL_MS) return;
    progressWrittenAt = Date.now();
    await updateImpactPreview(db, row.tenantId, row.id, { pagesRead: pages, recordsEvaluated: records });
  };
  try {
    const provider = deps.runtime.providerFor(connector);
    const replay =
      provider.provider === "aws"
        ? replayAws(deps, row, connector, definition, all, since, tally, progress)
        : replayAzure(deps, row, connector, provider, definition, all, since, tally, progress);
    const { limitations, nonCompliantResources } = await replay;
    const result = await summarise(deps, row, tally, limitations, nonCompliantResources);
    await updateImpactPreview(db, row.tenantId, row.id, {
      status: "SUCCEEDED",
      pagesRead: pages,
      recordsEvaluated: records,
      result,
      periodEnd: new Date(),
      finishedAt: new Date(),
    });
  } catch (error) {
    deps.logger.warn(
      { previewId: row.id, err: (error as Error).message },
      "impact preview could not read the audit stream",
    );
    await fail(describeCloudFailure(error));
  }
}

/** One more page read, of this many records. */
type Progress = (records: number) => Promise<void>;
interface Replayed {
  limitations: string[];
  nonCompliantResources: number;
}

/**
 * AWS: the requests the organisation trail delivered, as stored at ingest (every account and
 * region), replayed against the candidate SCP; no call to the cloud.
 */
async function replayAws(
  deps: PreviewRunDeps,
  row: ImpactPreviewRow,
  connector: ConnectorRow,
  definition: Definition,
  all: Map<string, Definition>,
  since: Date,
  tally: ImpactTally,
  progress: Progress,
): Promise<Replayed> {
  const compiled = compileCandidate(row, definition, all);
  if (compiled.provider === "aws_declarative")
    throw new Error(
      "the impact preview replays recorded requests against service control policies; it does not evaluate declarative policies for EC2",
    );
  if (compiled.provider !== "aws") throw new Error("an AWS preview compiled to another provider");
  const ctx: ClassifyContext = await loadClassifyContext(deps, connector, "aws");
  const target = {
    scp: { id: "preview", arn: "", name: compiled.scp.name, document: compiled.scp.content },
    scopes: (row.scopes as StoredScope[]).map((s) => s.externalId),
    excluded: (row.excludedScopes as StoredScope[]).map((s) => s.externalId),
    managementAccountId: ctx.managementAccountId ?? "",
    deployed: ctx.deployments,
    ancestorsOf: ctx.ancestorsOf,
  };
  const limitations = [...AWS_LIMITATIONS];
  try {
    await deps.catchUp?.(row.connectorId);
  } catch (error) {
    limitations.unshift(
      `The newest records could not be read (${describeCloudFailure(error)}); the preview covers the records stored until the last successful fetch.`,
    );
  }
  const stored = await loadStoredRequests(
    deps.db,
    { tenantId: row.tenantId, id: row.connectorId },
    dayOf(since),
  );
  for (const request of stored) replayStoredRequest(request, target, tally);
  await progress(stored.reduce((sum, s) => sum + s.count, 0));
  return { limitations, nonCompliantResources: 0 };
}

async function replayAzure(
  deps: ReplayDeps & { logger: Logger },
  row: ImpactPreviewRow,
  connector: ConnectorRow,
  provider: Extract<CloudProvider, { provider: "azure" }>,
  definition: Definition,
  all: Map<string, Definition>,
  since: Date,
  tally: ImpactTally,
  progress: Progress,
): Promise<Replayed> {
  const compiled = compileCandidate(row, definition, all);
  if (compiled.provider !== "azure") throw new Error("an Azure preview compiled to another provider");
  const policyRule = compiled.azure.definition.properties.policyRule;
  const assignment = compiled.azure.assignments[0];
  const parameters = Object.fromEntries(
    Object.entries(assignment?.properties.parameters ?? {}).map(([k, v]) => [k, v.value]),
  );
  const scopes = (row.scopes as StoredScope[]).map((s) => s.externalId);
  const excluded = (row.excludedScopes as StoredScope[]).map((s) => s.externalId);
  const target = {
    policyRule,
    parameters,
    scopes,
    excluded,
    resourceTypes: definition.affected_resource_types,
    aliases: deps.catalogue.aliases as AliasTable,
    fields: fieldsReadBy(policyRule),
  };
  const page = await provider.readAuditEvents(undefined, { since });
  for (const record of newestFirst(page.records)) replayActivityRecord(record, target, tally);
  await progress(page.records.length);

  // The compliance of resources that exist today is known where the same policy is assigned
  // already (an ALERT bundle about to be switched to PREVENT, or the policy on other scopes).
  const assigned = (await listClassifiedDeployments(deps.db, row.tenantId, connector.id))
    .filter((d) => d.policySlug === row.policySlug && d.nativeId)
    .map((d) => (d.nativeId as string).toLowerCase());
  const limitations = [
    "The Activity Log records who wrote which resource, not the request body: a rule that reads resource properties cannot be evaluated on past writes, and such writes are counted as not evaluable.",
    "Azure Policy evaluates creates and updates: deletes and other actions are not replayed.",
  ];
  let nonCompliantResources = 0;
  if (assigned.length > 0) {
    const states = await provider.readCompliance();
    const under = (id: string) =>
      scopes.some((s) => id.toLowerCase().startsWith(s.toLowerCase())) &&
      !excluded.some((s) => id.toLowerCase().startsWith(s.toLowerCase()));
    nonCompliantResources = new Set(
      states
        .filter(
          (s) => !s.compliant && assigned.includes(s.policyAssignmentId.toLowerCase()) && under(s.resourceId),
        )
        .map((s) => s.resourceId.toLowerCase()),
    ).size;
  } else {
    limitations.push(
      "The compliance of existing resources is known only where the policy is already assigned; it is not, so resources that exist today were not evaluated.",
    );
  }
  return { limitations, nonCompliantResources };
}

async function summarise(
  deps: ReplayDeps,
  row: ImpactPreviewRow,
  tally: ImpactTally,
  limitations: string[],
  nonCompliantResources: number,
): Promise<ImpactResult> {
  const topScopes = topCounts(tally.scopes);
  const names = await hierarchyNames(deps.db, row.tenantId, row.connectorId, [
    ...new Set([...topScopes.map((s) => s.value), ...tally.samples.map((s) => s.scopeId)]),
  ]);
  const extra: string[] = [];
  if (tally.notEvaluable > 0 && row.provider === "aws")
    extra.push(
      `Not evaluable: ${tally.notEvaluable} request${tally.notEvaluable === 1 ? "" : "s"} under these scopes (${topCounts(
        tally.notEvaluableActions,
      )
        .map((c) => `${c.value} ${c.count}`)
        .join(", ")}): the records do not tell ${[...tally.missingKeys].sort().join(", ")}.`,
    );
  else if (tally.notEvaluable > 0)
    extra.push(
      `${tally.notEvaluable} write${tally.notEvaluable === 1 ? "" : "s"} under these scopes could not be evaluated: the record does not carry the properties the rule reads.`,
    );
  return {
    denied: tally.denied,
    alreadyDenied: tally.alreadyDenied,
    notEvaluable: tally.notEvaluable,
    inScope: tally.evaluated,
    nonCompliantResources,
    distinctPrincipals: tally.principals.size,
    topActions: topCounts(tally.actions),
    topNotEvaluable: topCounts(tally.notEvaluableActions),
    topPrincipals: topCounts(tally.principals),
    topScopes: topScopes.map((s) => ({ ...s, name: names.get(s.value) ?? "" })),
    samples: tally.samples.map((s) => ({ ...s, scopeName: names.get(s.scopeId) ?? "" })),
    limitations: [...extra, ...limitations],
  };
}
