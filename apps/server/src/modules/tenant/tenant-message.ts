import { create } from "@bufbuild/protobuf";
import {
  type Tenant,
  TenantSchema,
  TenantSettingsSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { TenantRow, TenantSettingsRow } from "./tenant-repository";

export function tenantMessage(row: TenantRow, settings: TenantSettingsRow): Tenant {
  return create(TenantSchema, {
    id: row.id,
    name: row.name,
    slug: row.slug,
    settings: create(TenantSettingsSchema, {
      defaultWaiverApprovalMode:
        WaiverApprovalMode[settings.defaultWaiverApprovalMode as keyof typeof WaiverApprovalMode] ??
        WaiverApprovalMode.AUTO,
      maxWaiverDurationHours: settings.maxWaiverDurationHours,
      waiverLinkBaseUrl: settings.waiverLinkBaseUrl,
      requireSeparateApprover: settings.requireSeparateApprover,
      eventRetentionDays: settings.eventRetentionDays,
      auditRetentionDays: settings.auditRetentionDays,
      waiverRequesterDomains: settings.waiverRequesterDomains,
      requireMfa: settings.requireMfa,
    }),
  });
}
