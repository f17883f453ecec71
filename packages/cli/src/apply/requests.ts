import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import type {
  CreateBundleRequestSchema,
  CreateWaiverRequestSchema,
  UpdateBundleRequestSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import type { UpdateSettingsRequestSchema as UpdateNotificationsSchema } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import type { UpdateSettingsRequestSchema as UpdateTenantSchema } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode, WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { BundleFile, NotificationSettingsFile, TenantSettingsFile, WaiverFile } from "../files/schemas";
import type { FieldChange } from "../plan/plan";
import type { RemoteState } from "../remote/state";

// The files' objects as the contract's requests.

export interface Marking {
  path: string;
  commit: string;
}

const scopes = (ids: readonly string[] = []) => ids.map((externalId) => ({ externalId }));
const approval = (value: BundleFile["waiver_approval"]) =>
  value === "manual"
    ? WaiverApprovalMode.MANUAL
    : value === "auto"
      ? WaiverApprovalMode.AUTO
      : WaiverApprovalMode.UNSPECIFIED;

export function createBundleRequest(
  file: BundleFile,
  managedBy: Marking,
): MessageInitShape<typeof CreateBundleRequestSchema> {
  return {
    name: file.name,
    policySlug: file.policy,
    scopes: scopes(file.scopes),
    excludedScopes: scopes(file.excluded_scopes),
    mode: file.mode === "alert" ? DeploymentMode.ALERT : DeploymentMode.PREVENT,
    parameters: (file.parameters ?? {}) as JsonObject,
    isVisible: file.visible ?? true,
    ...(file.namespace ? { namespace: file.namespace } : {}),
    waiverSettings: { approvalMode: approval(file.waiver_approval) },
    managedBy,
  };
}

/** Only what changed, and the marking (with the new commit). */
export function updateBundleRequest(
  id: string,
  file: BundleFile,
  fields: readonly FieldChange[],
  managedBy: Marking,
): MessageInitShape<typeof UpdateBundleRequestSchema> {
  const changed = new Set(fields.map((f) => f.field));
  return {
    id,
    managedBy,
    ...(changed.has("name") ? { name: file.name } : {}),
    ...(changed.has("mode")
      ? { mode: file.mode === "alert" ? DeploymentMode.ALERT : DeploymentMode.PREVENT }
      : {}),
    ...(changed.has("namespace") ? { namespace: file.namespace ?? "" } : {}),
    ...(changed.has("visible") ? { isVisible: file.visible ?? true } : {}),
    ...(changed.has("waiver_approval")
      ? { waiverSettings: { approvalMode: approval(file.waiver_approval) } }
      : {}),
    ...(changed.has("parameters") ? { parameters: (file.parameters ?? {}) as JsonObject } : {}),
    ...(changed.has("scopes") || changed.has("excluded_scopes")
      ? { scopes: scopes(file.scopes), excludedScopes: { items: scopes(file.excluded_scopes) } }
      : {}),
  };
}

export function createWaiverRequest(
  file: WaiverFile,
  key: string,
  managedBy: Marking,
): MessageInitShape<typeof CreateWaiverRequestSchema> {
  const target =
    file.scope !== undefined
      ? { case: "targetScope" as const, value: { externalId: file.scope } }
      : file.principal !== undefined
        ? { case: "principalArn" as const, value: file.principal }
        : { case: "resource" as const, value: { externalId: file.resource ?? "" } };
  return {
    key,
    expiresAt: timestampFromDate(new Date(file.expires)),
    managedBy,
    waiverRequest: {
      target,
      createSource: WaiverCreateSource.SYSTEM,
      requester: { name: file.requester.name, identifier: file.requester.email, comment: file.reason },
      ticketReference: file.ticket ?? "",
    },
  };
}

/** The tenant's settings with the file's fields over them (UpdateSettings replaces them whole). */
export function tenantSettingsRequest(
  file: TenantSettingsFile,
  remote: RemoteState,
): MessageInitShape<typeof UpdateTenantSchema> {
  const current = remote.tenantSettings;
  return {
    settings: {
      defaultWaiverApprovalMode:
        file.default_waiver_approval === undefined
          ? (current?.defaultWaiverApprovalMode ?? WaiverApprovalMode.AUTO)
          : file.default_waiver_approval === "manual"
            ? WaiverApprovalMode.MANUAL
            : WaiverApprovalMode.AUTO,
      maxWaiverDurationHours: file.max_waiver_duration_hours ?? current?.maxWaiverDurationHours ?? 72,
      waiverLinkBaseUrl: file.waiver_link_base_url ?? current?.waiverLinkBaseUrl ?? "",
      requireSeparateApprover: file.require_separate_approver ?? current?.requireSeparateApprover,
      eventRetentionDays: file.event_retention_days ?? current?.eventRetentionDays,
      waiverRequesterDomains: file.waiver_requester_domains ?? current?.waiverRequesterDomains ?? [],
      requireMfa: file.require_mfa ?? current?.requireMfa,
    },
  };
}

/** The file's switches over the current ones; webhooks and secrets are left as they are. */
export function notificationSettingsRequest(
  file: NotificationSettingsFile,
  remote: RemoteState,
): MessageInitShape<typeof UpdateNotificationsSchema> {
  const current = remote.notificationSettings;
  const events = file.events;
  return {
    events: events
      ? {
          waiverPending: events.waiver_pending,
          waiverDecided: events.waiver_decided,
          waiverExpiring: events.waiver_expiring,
          deploymentFailed: events.deployment_failed,
        }
      : current?.events,
    emailEnabled: file.email ?? current?.email?.enabled ?? false,
    slackEnabled: file.slack ?? current?.slack?.enabled ?? false,
    teamsEnabled: file.teams ?? current?.teams?.enabled ?? false,
  };
}
