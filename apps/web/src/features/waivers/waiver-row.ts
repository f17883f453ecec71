import { WaiverDeploymentStatus, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { waiverPropagationText } from "@/lib/propagation";

export interface WaiverRowInput {
  status: WaiverStatus;
  deploymentStatus: WaiverDeploymentStatus;
  /** Set once the waiver was activated (AUTO at once, MANUAL when approved). */
  hasExpiry: boolean;
  /** While PROPAGATING: when the cloud honours it. */
  propagationEndsAt?: Date;
}

export interface WaiverRowGrants {
  canUpdate: boolean;
  canWrite: boolean;
}

/**
 * What a user may do with a waiver: approve or reject one that awaits a decision (with
 * WAIVERS_UPDATE), cancel one that is pending, propagating or active (with WAIVERS_WRITE). An approved
 * waiver that has not reached the cloud reads PENDING but has an expiry: it is not awaiting a
 * decision any more.
 */
export function waiverActions(waiver: WaiverRowInput, grants: WaiverRowGrants) {
  const awaitingDecision = waiver.status === WaiverStatus.PENDING && !waiver.hasExpiry;
  const open =
    waiver.status === WaiverStatus.PENDING ||
    waiver.status === WaiverStatus.PROPAGATING ||
    waiver.status === WaiverStatus.ACTIVE;
  return {
    approve: grants.canUpdate && awaitingDecision,
    reject: grants.canUpdate && awaitingDecision,
    cancel: grants.canWrite && open,
  };
}

export type BadgeVariant = "success" | "warning" | "secondary" | "destructive" | "outline";

/** The status as a person reads it, with why an approved waiver is not in force yet. */
export function waiverStatusLabel(waiver: WaiverRowInput): {
  label: string;
  variant: BadgeVariant;
  hint?: string;
} {
  switch (waiver.status) {
    case WaiverStatus.ACTIVE:
      return { label: "Active", variant: "success" };
    case WaiverStatus.PROPAGATING:
      return {
        label: "Propagating",
        variant: "warning",
        hint: waiverPropagationText(waiver.propagationEndsAt),
      };
    case WaiverStatus.PENDING:
      if (!waiver.hasExpiry) return { label: "Awaiting approval", variant: "warning" };
      return waiver.deploymentStatus === WaiverDeploymentStatus.FAILED
        ? { label: "Failed", variant: "destructive", hint: "The cloud did not accept this waiver." }
        : { label: "Pending", variant: "warning", hint: "Approved; being applied in the cloud." };
    case WaiverStatus.EXPIRED:
      return { label: "Expired", variant: "secondary" };
    case WaiverStatus.CANCELLED:
      return { label: "Cancelled", variant: "outline" };
    case WaiverStatus.REJECTED:
      return { label: "Rejected", variant: "destructive" };
    default:
      return { label: "Unknown", variant: "outline" };
  }
}

/** "1 h", "24 h", "1 h 30 min". */
export function formatDuration(seconds: bigint): string {
  const total = Number(seconds);
  const hours = Math.floor(total / 3_600);
  const minutes = Math.round((total % 3_600) / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
