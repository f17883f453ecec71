import { formatDateTime } from "@/lib/date-time";
import type { CreatedWaiverJson } from "./api/waiver-rpc";

type WaiverJson = NonNullable<CreatedWaiverJson["waiver"]>;

/** What the requester is told about their waiver after submitting it. */
export type WaiverOutcome =
  | { kind: "active"; expiresAt: string | null; scope: string }
  | { kind: "propagating"; activeAt: Date | null; expiresAt: string | null; scope: string }
  | { kind: "pending"; tenantName: string }
  | { kind: "rejected"; reviewer: string }
  | { kind: "closed"; status: string };

/** The expiry time in the requester's own time zone, with the zone named. */
export function localExpiry(iso: string | undefined, timeZone?: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return formatDateTime(date, timeZone);
}

const statusName = (status: WaiverJson["status"]): string =>
  typeof status === "string" ? status.replace(/^WAIVER_STATUS_/, "") : "UNSPECIFIED";

export function waiverOutcomeOf(waiver: WaiverJson, tenantName: string, timeZone?: string): WaiverOutcome {
  const status = statusName(waiver.status);
  if (status === "ACTIVE") {
    return { kind: "active", expiresAt: localExpiry(waiver.expiresAt, timeZone), scope: waiver.scope ?? "" };
  }
  if (status === "PROPAGATING") {
    const activeAt = waiver.propagationEndsAt ? new Date(waiver.propagationEndsAt) : null;
    return {
      kind: "propagating",
      activeAt: activeAt && !Number.isNaN(activeAt.getTime()) ? activeAt : null,
      expiresAt: localExpiry(waiver.expiresAt, timeZone),
      scope: waiver.scope ?? "",
    };
  }
  if (status === "PENDING") return { kind: "pending", tenantName };
  if (status === "REJECTED") return { kind: "rejected", reviewer: waiver.reviewer?.name ?? "" };
  return { kind: "closed", status };
}
