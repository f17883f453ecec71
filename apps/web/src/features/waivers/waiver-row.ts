import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  type Waiver,
  WaiverDeploymentStatus,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { managedByCodeNote } from "@/lib/managed-by-code";
import { waiverPropagationText } from "@/lib/propagation";

export interface WaiverRowInput {
  status: WaiverStatus;
  deploymentStatus: WaiverDeploymentStatus;
  /** Set once the waiver was activated (AUTO at once, MANUAL when approved). */
  hasExpiry: boolean;
  /** While PROPAGATING: when the cloud honours it. */
  propagationEndsAt?: Date;
  /** A pre-approved waiver applied from a file: changed in the repository, not here. */
  managedBy?: { path: string; commit: string };
}

export interface WaiverRowGrants {
  canUpdate: boolean;
  canWrite: boolean;
  /** The caller requested this waiver and the tenant requires someone else to decide on it. */
  ownRequestNeedsOtherApprover?: boolean;
}

/** Why the caller sees no Approve or Reject on a waiver that awaits a decision. */
export const OWN_REQUEST_NOTE = "You requested this waiver: another approver decides.";

/**
 * What a user may do with a waiver: approve or reject one that awaits a decision (with
 * WAIVERS_UPDATE, and not their own request when the tenant requires a separate approver, as
 * the server refuses it), cancel one that is pending, propagating or active (with WAIVERS_WRITE). An approved
 * waiver that has not reached the cloud reads PENDING but has an expiry: it is not awaiting a
 * decision any more. `note` says why a reviewer sees no decision buttons.
 */
export interface WaiverRowActionSet {
  approve: boolean;
  reject: boolean;
  cancel: boolean;
  note?: string;
}

export function waiverActions(waiver: WaiverRowInput, grants: WaiverRowGrants): WaiverRowActionSet {
  const awaitingDecision = waiver.status === WaiverStatus.PENDING && !waiver.hasExpiry;
  const open =
    waiver.status === WaiverStatus.PENDING ||
    waiver.status === WaiverStatus.PROPAGATING ||
    waiver.status === WaiverStatus.ACTIVE;
  const blockedAsOwn = grants.canUpdate && awaitingDecision && !!grants.ownRequestNeedsOtherApprover;
  const decide = grants.canUpdate && awaitingDecision && !blockedAsOwn;
  if (waiver.managedBy)
    return { approve: false, reject: false, cancel: false, note: managedByCodeNote(waiver.managedBy) };
  return {
    approve: decide,
    reject: decide,
    cancel: grants.canWrite && open,
    note: blockedAsOwn ? OWN_REQUEST_NOTE : undefined,
  };
}

/** Whether the signed-in person asked for this waiver, as the server judges it (e-mail, or id for integrations). */
export function requestedBy(requesterIdentifier: string | undefined, caller: { id: string; email: string }) {
  if (!requesterIdentifier) return false;
  return requesterIdentifier === (caller.email || caller.id);
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

/** What a waiver exempts, for display: the cloud id, and its name where the hierarchy knows it. */
export function waiverTargetOf(
  waiver: Pick<Waiver, "target" | "scope" | "scopeName">,
  names: ReadonlyMap<string, string>,
): { id: string; name: string } | undefined {
  const target = waiver.target;
  const id =
    target.case === "targetScope" || target.case === "resource"
      ? (target.value.externalId ?? "")
      : target.case === "principalArn"
        ? target.value
        : "";
  if (!id) return undefined;
  // Without the hierarchy (no permission to read connectors), the server's own description.
  return { id, name: waiver.scopeName || names.get(id.toLowerCase()) || waiver.scope };
}

/**
 * When a waiver ends or ended: a cancelled one when it was cancelled (the time the server records
 * then, not its expiry nor its last change), otherwise its expiry once it has one.
 */
export function waiverEndOf(
  waiver: Pick<Waiver, "status" | "expiresAt" | "cancelledAt">,
): { label: string; at: Date } | undefined {
  if (waiver.status === WaiverStatus.CANCELLED) {
    return waiver.cancelledAt ? { label: "Cancelled", at: timestampDate(waiver.cancelledAt) } : undefined;
  }
  if (!waiver.expiresAt) return undefined;
  const label = waiver.status === WaiverStatus.EXPIRED ? "Expired" : "Expires";
  return { label, at: timestampDate(waiver.expiresAt) };
}
