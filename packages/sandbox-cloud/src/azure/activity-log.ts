import { randomUUID } from "node:crypto";
import type { ActivityLogEvent } from "../state/model";
import type { StateStore } from "../state/store";
import { parseScope } from "./scopes";

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
}

const loc = (value: string) => ({ value, localizedValue: value });

export function recordActivity(store: StateStore, input: ActivityInput): ActivityLogEvent | undefined {
  const parsed = parseScope(input.resourceId);
  if (!parsed?.subscriptionId) return undefined;
  const now = store.now().toISOString();
  const provider = /\/providers\/([^/]+)\//i.exec(input.resourceId)?.[1] ?? "Microsoft.Resources";
  const op = input.operationName.split("/");
  const event: ActivityLogEvent = {
    eventDataId: randomUUID(),
    correlationId: input.correlationId ?? randomUUID(),
    operationId: randomUUID(),
    operationName: loc(input.operationName),
    category: loc(input.category ?? "Administrative"),
    level: input.level ?? (input.status === "Failed" ? "Error" : "Informational"),
    resourceId: input.resourceId,
    ...(parsed.resourceGroup ? { resourceGroupName: parsed.resourceGroup } : {}),
    resourceProviderName: loc(provider),
    resourceType: loc(op.slice(0, -1).join("/")),
    status: loc(input.status),
    subStatus: loc(input.subStatus ?? ""),
    caller: input.caller,
    claims: {
      "http://schemas.microsoft.com/identity/claims/objectidentifier": input.callerObjectId,
      name: input.caller,
    },
    eventTimestamp: now,
    submissionTimestamp: now,
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
