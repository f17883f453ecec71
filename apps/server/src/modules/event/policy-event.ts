/** Stored names of the event types (proto `EventType` without its prefix). */
export type EventTypeName =
  | "PREVENTION"
  | "DRIFT"
  | "HISTORICAL_DRIFT"
  | "WAIVED"
  | "MISSING"
  | "RESOLVED"
  | "DISMISSED"
  | "ALERT";

export type EventProviderName = "AWS" | "AZURE" | "UNSPECIFIED";

/** One provider record behind an event, as kept in `policy_events.audits`. */
export interface StoredAudit {
  id: string;
  action: string;
  eventTime: string;
  raw: unknown;
}

/** An event ready to be written; `providerEventId` makes the write idempotent. */
export interface NewPolicyEvent {
  tenantId: string;
  providerEventId: string;
  type: EventTypeName;
  cloudProvider: EventProviderName;
  deploymentId?: string | null;
  bundleId?: string | null;
  deploymentName?: string | null;
  namespace?: string | null;
  resourceExternalId?: string | null;
  resourceNativeType?: string | null;
  resourceScope?: string | null;
  resourceName?: string | null;
  resourceCreatedAt?: Date | null;
  resourceLink?: string | null;
  userIdentifier?: string | null;
  userName?: string | null;
  sourceAppIdentifier?: string | null;
  sourceAppName?: string | null;
  userType?: "USER" | "APPLICATION" | null;
  occurredAt: Date;
  audits?: StoredAudit[];
}
