import type { EventData } from "@azure/arm-monitor";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type { AuditPage, AuditRecord } from "../cloud-provider";
import { errorCode, errorMessage, errorStatus } from "../errors";
import { activityLogPages } from "./azure-activity-log-pages";
import type { AzureClients } from "./azure-clients";
import { subscriptionsBelow } from "./azure-hierarchy";

const ACTIVITY_LOG_DAYS = 89;

/**
 * The Activity Log lists an event by `eventTimestamp`, but only from its `submissionTimestamp`,
 * "the timestamp of when the event became available for querying via this API ... there might be
 * a delay between the occurrence time of the event, and the time that the event is submitted"
 * (https://learn.microsoft.com/dotnet/api/azure.resourcemanager.monitor.models.eventdatainfo.submissiontimestamp);
 * Azure Monitor names 10 to 15 minutes for Activity Log data on its legacy path
 * (https://learn.microsoft.com/azure/azure-monitor/logs/data-ingestion-time). Each read lists
 * again the half hour before the newest event seen.
 */
export const ACTIVITY_LOG_REREAD_MS = 30 * 60_000;

/**
 * How long after it happened an Activity Log event may still be unlisted: Azure Monitor's 10 to 15
 * minutes (above). Until then, that nothing was listed does not mean nothing happened.
 */
export const ACTIVITY_LOG_LAG_SECONDS = 15 * 60;

/**
 * The Activity Log of every subscription below the root group from the cursor (as far back as Azure
 * keeps it on a first read), each event once: `AuditRecord.id` is its `eventDataId`.
 */
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
  const subscriptions = await subscriptionsBelow(clients, rootGroup);
  let listedAt: Date | undefined;
  const answered = (at: Date) => {
    if (!listedAt || at < listedAt) listedAt = at;
  };
  const perSub = await Promise.allSettled(
    subscriptions.map(({ id }) =>
      collect((settings) => activityLogPages(clients, id, filter, settings, answered)),
    ),
  );
  const read = perSub.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  const refused = perSub.flatMap((r, i) =>
    r.status === "rejected" ? [{ ...subscriptions[i]!, error: r.reason }] : [],
  );
  // Nothing read at all (signed out, the service down): the read failed as a whole.
  if (refused.length > 0 && refused.length === subscriptions.length) throw refused[0]!.error;
  const { fresh, next } = advanceCursor(cursor, read.map(activityRecord), ACTIVITY_LOG_REREAD_MS);
  if (refused.length === 0) return { records: fresh, cursor: encodeCursor(next), listedAt };
  // The records read are kept (by event id, so reading them again adds nothing); the position
  // stays, so the refused subscriptions' records are read once they can be.
  return {
    records: fresh,
    cursor: cursorText ?? encodeCursor(cursor),
    listedAt,
    unreadScopes: refused.map(({ id }) => id),
    unread: `${refused.map(unreadSubscription).join(" ")} The other ${subscriptions.length - refused.length} subscription(s) were read.`,
  };
}

/**
 * Why one subscription's Activity Log was not read, by the name the portal shows. Listing it needs
 * `Microsoft.Insights/eventtypes/values/read` ("Read management event type values",
 * https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/monitor), which the
 * Reader role grants.
 */
function unreadSubscription({ id, name, error }: { id: string; name: string; error: unknown }): string {
  const code = errorCode(error) || String(errorStatus(error) ?? "");
  if (errorStatus(error) === 403 || /AuthorizationFailed/.test(code))
    return `Subscription ${name} (${id}) refused the read (${code}): assign the connector's app the Reader role on it (Microsoft.Insights/eventtypes/values/read).`;
  return `Subscription ${name} (${id}) could not be read: ${errorMessage(error)}${code ? ` (${code})` : ""}.`;
}

export function activityRecord(event: EventData): AuditRecord {
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
