import { randomUUID } from "node:crypto";
import type { ActivityLogEvent } from "../state/model";
import type { StateStore } from "../state/store";
import { parseScope } from "./scopes";

/**
 * Azure lists an Activity Log event by `eventTimestamp` but only once it is submitted:
 * `submissionTimestamp` is "the timestamp of when the event became available for querying ...
 * there might be a delay between the occurrence time of the event, and the time that the event is
 * submitted" (https://learn.microsoft.com/dotnet/api/azure.resourcemanager.monitor.models.eventdatainfo.submissiontimestamp;
 * the schema's samples lag by 20 s to 4 min, https://learn.microsoft.com/azure/azure-monitor/essentials/activity-log-schema).
 * Each event is submitted between half this lag and this lag after it happened, so events arrive
 * out of order as Azure's do.
 */
export const DEFAULT_ACTIVITY_LOG_LAG_MS = 60_000;

export interface ActivityInput {
  resourceId: string;
  operationName: string;
  caller: string;
  callerObjectId: string;
  status: "Succeeded" | "Failed" | "Started";
  subStatus?: string;
  properties?: Record<string, string>;
  correlationId?: string;
  level?: "Informational" | "Warning" | "Error";
  category?: "Administrative" | "Policy";
  method?: string;
  /** The type the event is about when it is not the resource's (a compliance scan's). */
  resourceType?: string;
  /** The RBAC action and scope the event was authorized for. */
  authorization?: { action: string; scope: string };
}

const loc = (value: string) => ({ value, localizedValue: value });

/** The most an event of this store's Activity Log waits between happening and being listed. */
export function activityLogLagMs(store: StateStore): number {
  return store.activityLogLagMs ?? DEFAULT_ACTIVITY_LOG_LAG_MS;
}

export function recordActivity(store: StateStore, input: ActivityInput): ActivityLogEvent | undefined {
  const parsed = parseScope(input.resourceId);
  if (!parsed?.subscriptionId) return undefined;
  const at = store.now();
  const lag = activityLogLagMs(store);
  const submitted = new Date(at.getTime() + Math.ceil(lag * (0.5 + Math.random() / 2)));
  const provider = /\/providers\/([^/]+)\//i.exec(input.resourceId)?.[1] ?? "Microsoft.Resources";
  const resourceType =
    input.resourceType ??
    /\/providers\/([^/]+\/[^/]+)\/[^/]+$/i.exec(input.resourceId)?.[1] ??
    input.operationName.split("/").slice(0, -1).join("/");
  const event: ActivityLogEvent = {
    ...(input.authorization ? { authorization: input.authorization } : {}),
    eventDataId: randomUUID(),
    correlationId: input.correlationId ?? randomUUID(),
    operationId: randomUUID(),
    operationName: loc(input.operationName),
    category: loc(input.category ?? "Administrative"),
    level: input.level ?? (input.status === "Failed" ? "Error" : "Informational"),
    resourceId: input.resourceId,
    ...(parsed.resourceGroup ? { resourceGroupName: parsed.resourceGroup } : {}),
    resourceProviderName: loc(provider),
    resourceType: loc(resourceType),
    status: loc(input.status),
    subStatus: loc(input.subStatus ?? ""),
    caller: input.caller,
    claims: {
      "http://schemas.microsoft.com/identity/claims/objectidentifier": input.callerObjectId,
      name: input.caller,
    },
    eventTimestamp: at.toISOString(),
    submissionTimestamp: submitted.toISOString(),
    subscriptionId: parsed.subscriptionId,
    tenantId: store.state.azure.tenantId,
    properties: input.properties ?? {},
    httpRequest: {
      clientRequestId: randomUUID(),
      clientIpAddress: "203.0.113.17",
      method: input.method ?? "PUT",
    },
  };
  store.state.azure.activityLog.push(event);
  store.changed();
  return event;
}

/** Whether the event has been submitted, and so is listed, at `now`. */
export function isSubmitted(event: ActivityLogEvent, now: Date): boolean {
  return Date.parse(event.submissionTimestamp) <= now.getTime();
}
