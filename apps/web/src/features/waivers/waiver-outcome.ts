import { formatDateTime } from "@/lib/date-time";
import type { CreatedWaiverJson } from "./api/waiver-rpc";

type WaiverJson = NonNullable<CreatedWaiverJson["waiver"]>;

/** What the requester is told about their waiver after submitting it. */
export type WaiverOutcome =
  | { kind: "active"; expiresAt: string | null; scope: WaiverTargetName | null }
  | { kind: "propagating"; activeAt: Date | null; expiresAt: string | null; scope: WaiverTargetName | null }
  | { kind: "pending"; tenantName: string; scope: WaiverTargetName | null }
  | { kind: "rejected"; reviewer: string }
  /** Cancelled, expired: `endedAt` is when it was cancelled, in the viewer's time zone. */
  | { kind: "closed"; status: string; endedAt: string | null };

/** The expiry time in the requester's own time zone, with the zone named. */
export function localExpiry(iso: string | undefined, timeZone?: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return formatDateTime(date, timeZone);
}

/** What the waiver exempts: the server's name for it, and the cloud id kept for hover. */
export interface WaiverTargetName {
  name: string;
  id: string;
}

function targetOf(waiver: WaiverJson): WaiverTargetName | null {
  const id = waiver.targetScope?.externalId || waiver.resource?.externalId || waiver.principalArn || "";
  if (!id && !waiver.scope) return null;
  return { name: waiver.scopeName || waiver.scope || id, id: id || (waiver.scope ?? "") };
}

const statusName = (status: WaiverJson["status"]): string =>
  typeof status === "string" ? status.replace(/^WAIVER_STATUS_/, "") : "UNSPECIFIED";

export function waiverOutcomeOf(waiver: WaiverJson, tenantName: string, timeZone?: string): WaiverOutcome {
  const status = statusName(waiver.status);
  if (status === "ACTIVE") {
    return { kind: "active", expiresAt: localExpiry(waiver.expiresAt, timeZone), scope: targetOf(waiver) };
  }
  if (status === "PROPAGATING") {
    const activeAt = waiver.propagationEndsAt ? new Date(waiver.propagationEndsAt) : null;
    return {
      kind: "propagating",
      activeAt: activeAt && !Number.isNaN(activeAt.getTime()) ? activeAt : null,
      expiresAt: localExpiry(waiver.expiresAt, timeZone),
      scope: targetOf(waiver),
    };
  }
  if (status === "PENDING") return { kind: "pending", tenantName, scope: targetOf(waiver) };
  if (status === "REJECTED") return { kind: "rejected", reviewer: waiver.reviewer?.name ?? "" };
  return {
    kind: "closed",
    status,
    endedAt: localExpiry(status === "CANCELLED" ? waiver.cancelledAt : waiver.expiresAt, timeZone),
  };
}
