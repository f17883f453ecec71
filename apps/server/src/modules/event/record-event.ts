import type { Database } from "../../db/database";
import { findDeploymentOfEvent } from "./event-lookup-repository";
import { insertNewEvents } from "./event-write-repository";
import type { EventProviderName, NewPolicyEvent } from "./policy-event";

/** Rows per INSERT statement. */
const BATCH = 5000;

/**
 * Writes events idempotently (a provider event id already stored is skipped) in multi-row
 * batches, each one statement that also counts the new events in their days and moves each
 * touched resource event and identity to its newest event. Returns how many events were new. Run inside a transaction when the caller advances a cursor after it.
 */
export async function writeEvents(db: Database, events: NewPolicyEvent[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < events.length; start += BATCH) {
    const chunk = events.slice(start, start + BATCH);
    // Two records of one batch may carry the same provider id; the first one wins.
    const unique = [...new Map(chunk.map((e) => [`${e.tenantId}\u0000${e.providerEventId}`, e])).values()];
    inserted += await insertNewEvents(db, unique);
  }
  return inserted;
}

/**
 * Records that a deployment's native document (SCP, assignment) was found missing from the
 * cloud. One event per deployment and detection time; re-running the same reconcile is a no-op.
 */
export async function recordMissingDeployment(
  db: Database,
  input: {
    tenantId: string;
    deploymentId: string;
    /** When reconcile found it missing; events of one reconcile run share it. */
    detectedAt?: Date;
    /** The native id that was looked for (SCP id, assignment id). */
    nativeId?: string | null;
    /** Why it counts as missing, e.g. "SCP p-abc123 not found". */
    reason?: string;
  },
): Promise<{ recorded: boolean }> {
  const row = await findDeploymentOfEvent(db, input.tenantId, input.deploymentId);
  if (!row) return { recorded: false };
  const detectedAt = input.detectedAt ?? new Date();
  const nativeId = input.nativeId ?? row.nativeId ?? "";
  const count = await writeEvents(db, [
    {
      tenantId: input.tenantId,
      providerEventId: `missing:${row.deploymentId}:${detectedAt.toISOString()}`,
      type: "MISSING",
      cloudProvider: providerName(row.provider),
      deploymentId: row.deploymentId,
      bundleId: row.bundleId,
      deploymentName: row.name,
      namespace: row.namespace,
      resourceExternalId: nativeId || row.scopeExternalId,
      resourceNativeType:
        providerName(row.provider) === "AWS"
          ? "AWS::Organizations::Policy"
          : "Microsoft.Authorization/policyAssignments",
      resourceScope: row.scopeExternalId,
      resourceName: nativeId || row.name,
      userName: "Palisade",
      userType: "APPLICATION",
      occurredAt: detectedAt,
      audits: [
        {
          id: `missing:${row.deploymentId}`,
          action: "palisade:Reconcile",
          eventTime: detectedAt.toISOString(),
          raw: { reason: input.reason ?? "The deployment was not found in the cloud.", nativeId },
        },
      ],
    },
  ]);
  return { recorded: count > 0 };
}

/** `bundles.provider` holds "aws"/"azure" or the enum names; events store the enum names. */
export function providerName(provider: string | null | undefined): EventProviderName {
  const p = (provider ?? "").toLowerCase();
  if (p.includes("aws")) return "AWS";
  if (p.includes("azure")) return "AZURE";
  return "UNSPECIFIED";
}
