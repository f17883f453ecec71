import type { JsonObject } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ManagedBy } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type DeploymentBundle,
  DeploymentMode,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import type { NotificationSettings } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import type { TenantSettings } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import {
  type Waiver,
  WaiverApprovalMode,
  WaiverCreateSource,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { BundleFile, NotificationSettingsFile, TenantSettingsFile, WaiverFile } from "./schemas";

// The server's objects in the files' form: what export writes and what plan compares the files
// with. Keys are in a fixed order and parameters sorted, so the same state gives the same bytes.

function sortedObject(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]),
  );
}

export function bundleToFile(bundle: DeploymentBundle): BundleFile {
  const parameters = sortedObject((bundle.parameters ?? {}) as JsonObject);
  const approval = bundle.waiverSettings?.approvalMode;
  return {
    kind: "Bundle",
    name: bundle.name,
    policy: bundle.policySlug,
    mode: bundle.mode === DeploymentMode.ALERT ? "alert" : "prevent",
    scopes: bundle.scopes.map((s) => s.externalId),
    ...(bundle.excludedScopes.length > 0
      ? { excluded_scopes: bundle.excludedScopes.map((s) => s.externalId) }
      : {}),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
    visible: bundle.isVisible,
    ...(bundle.namespace ? { namespace: bundle.namespace } : {}),
    waiver_approval: approval === WaiverApprovalMode.MANUAL ? "manual" : "auto",
  };
}

/** The waivers a file stands for: one per deployment the target lies in, written as one. */
export interface WaiverGroup {
  waivers: Waiver[];
  file: WaiverFile;
  managedBy: ManagedBy | undefined;
}

export function waiverToFile(waiver: Waiver): WaiverFile {
  const target = waiver.target;
  return {
    kind: "Waiver",
    bundle: waiver.policyDeployment?.name ?? "",
    ...(target.case === "targetScope" ? { scope: target.value.externalId } : {}),
    ...(target.case === "principalArn" ? { principal: target.value } : {}),
    ...(target.case === "resource" ? { resource: target.value.externalId } : {}),
    requester: { name: waiver.requester?.name ?? "", email: waiver.requester?.identifier ?? "" },
    reason: waiver.requester?.comment ?? "",
    ...(waiver.ticketReference ? { ticket: waiver.ticketReference } : {}),
    expires: waiver.expiresAt ? timestampDate(waiver.expiresAt).toISOString().replace(".000Z", "Z") : "",
  };
}

/**
 * Waivers granted outright (pre-approved, not requested through the page or chat), grouped into
 * the files they come from: by file path when applied from one, else by what they say.
 */
export function preApprovedWaiverGroups(waivers: readonly Waiver[]): WaiverGroup[] {
  const groups = new Map<string, WaiverGroup>();
  for (const waiver of waivers) {
    const granted = waiver.createSource === WaiverCreateSource.SYSTEM || waiver.managedBy !== undefined;
    if (!granted || !waiver.expiresAt) continue;
    const file = waiverToFile(waiver);
    const id = waiver.managedBy
      ? `path:${waiver.managedBy.path}`
      : `${waiver.policyKey}:${JSON.stringify(file)}`;
    const group = groups.get(id);
    if (group) group.waivers.push(waiver);
    else groups.set(id, { waivers: [waiver], file, managedBy: waiver.managedBy });
  }
  return [...groups.values()];
}

export function tenantSettingsToFile(settings: TenantSettings): TenantSettingsFile {
  return {
    kind: "TenantSettings",
    default_waiver_approval:
      settings.defaultWaiverApprovalMode === WaiverApprovalMode.MANUAL ? "manual" : "auto",
    max_waiver_duration_hours: settings.maxWaiverDurationHours || 72,
    waiver_link_base_url: settings.waiverLinkBaseUrl,
    require_separate_approver: settings.requireSeparateApprover ?? true,
    event_retention_days: settings.eventRetentionDays ?? 400,
    waiver_requester_domains: [...settings.waiverRequesterDomains].sort(),
    require_mfa: settings.requireMfa ?? false,
  };
}

export function notificationSettingsToFile(settings: NotificationSettings): NotificationSettingsFile {
  const events = settings.events;
  return {
    kind: "NotificationSettings",
    events: {
      waiver_pending: events?.waiverPending ?? false,
      waiver_decided: events?.waiverDecided ?? false,
      waiver_expiring: events?.waiverExpiring ?? false,
      deployment_failed: events?.deploymentFailed ?? false,
    },
    email: settings.email?.enabled ?? false,
    slack: settings.slack?.enabled ?? false,
    teams: settings.teams?.enabled ?? false,
  };
}
