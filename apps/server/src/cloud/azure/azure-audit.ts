import type { EventData } from "@azure/arm-monitor";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type { AuditPage, AuditRecord } from "../cloud-provider";
import { activityLogPages } from "./azure-activity-log-pages";
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
  const { collect } = clients;
  const oldest = new Date(Date.now() - ACTIVITY_LOG_DAYS * 86_400_000);
  const cursor: AuditCursor = decodeCursor(cursorText) ?? {
    time: (options?.since ?? oldest).toISOString(),
    ids: [],
  };
  const filter = `eventTimestamp ge '${cursor.time}'`;
  const perSub = await Promise.all(
    (await subscriptionIds(clients, rootGroup)).map((id) =>
      collect((settings) => activityLogPages(clients, id, filter, settings)),
    ),
  );
  const { fresh, next } = advanceCursor(cursor, perSub.flat().map(activityRecord));
  return { records: fresh, cursor: encodeCursor(next) };
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
