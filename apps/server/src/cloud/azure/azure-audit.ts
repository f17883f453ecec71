import type { EventData } from "@azure/arm-monitor";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type { AuditPage, AuditRecord, ComplianceRecord } from "../cloud-provider";
import type { AzureClients } from "./azure-clients";
import { subscriptionIds } from "./azure-hierarchy";

const ACTIVITY_LOG_DAYS = 89;

/** The Activity Log of every subscription after the cursor (as far back as Azure keeps it on a first read). */
export async function readActivityLog(
  clients: AzureClients,
  rootGroup: string,
  cursorText: string | undefined,
  options?: { since?: Date },
): Promise<AuditPage> {
  const { clientsFor, collect } = clients;
  const oldest = new Date(Date.now() - ACTIVITY_LOG_DAYS * 86_400_000);
  const cursor: AuditCursor = decodeCursor(cursorText) ?? {
    time: (options?.since ?? oldest).toISOString(),
    ids: [],
  };
  const filter = `eventTimestamp ge '${cursor.time}'`;
  const perSub = await Promise.all(
    (await subscriptionIds(clients, rootGroup)).map((id) =>
      collect(() => clientsFor(id).monitor.activityLogs.list(filter).byPage()),
    ),
  );
  const { fresh, next } = advanceCursor(cursor, perSub.flat().map(activityRecord));
  return { records: fresh, cursor: encodeCursor(next) };
}

/** The latest compliance state of each resource and assignment below the root group. */
export async function readComplianceStates(
  { insights, collect }: AzureClients,
  rootGroup: string,
  options?: { since?: Date },
): Promise<ComplianceRecord[]> {
  const states = await collect(() =>
    insights.policyStates
      .listQueryResultsForManagementGroup("latest", rootGroup, {
        queryOptions: options?.since ? { from: options.since } : {},
      })
      .byPage(),
  );
  return states.map((s) => ({
    resourceId: s.resourceId ?? "",
    policyAssignmentId: s.policyAssignmentId ?? "",
    policyDefinitionId: s.policyDefinitionId ?? "",
    compliant: s.isCompliant ?? s.complianceState?.toLowerCase() === "compliant",
    time: s.timestamp ?? new Date(0),
    subscriptionId: s.subscriptionId,
  }));
}

function activityRecord(event: EventData): AuditRecord {
  const failed = event.status?.value === "Failed";
  const statusMessage = event.properties?.statusMessage;
  let message: string | undefined;
  let code: string | undefined;
  if (failed && statusMessage) {
    try {
      const parsed = JSON.parse(statusMessage) as { error?: { code?: string; message?: string } };
      code = parsed.error?.code;
      message = parsed.error?.message;
    } catch {
      message = statusMessage;
    }
  }
  return {
    id: event.eventDataId ?? event.id ?? "",
    time: event.eventTimestamp ?? new Date(0),
    action: event.operationName?.value ?? "",
    principal: event.caller,
    scopeId: event.subscriptionId,
    errorCode: failed ? (code ?? event.subStatus?.value ?? "Failed") : undefined,
    errorMessage: message,
    raw: event,
  };
}
