import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  TenantSettings,
  UpdateSettingsRequest,
  UpdateSettingsResponseSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { auditCall } from "../../audit/audit-log";
import { renameTenant, saveTenantSettings } from "../tenant-repository";
import { loadTenantMessage, requireTenant, type TenantServiceDeps } from "../tenants";

/** The message is the sentence a form shows beside the field. */
function invalid(field: string, message: string): never {
  throw invalidArgument(message, [{ field, message }]);
}

function readName(raw: string | undefined): string | undefined {
  const name = raw?.trim();
  if (name !== undefined && name.length < 1) invalid("name", "Tenant name must not be empty.");
  return name;
}

function checkSettings(settings: TenantSettings): void {
  const { maxWaiverDurationHours, waiverLinkBaseUrl, defaultWaiverApprovalMode } = settings;
  // The ceiling (72 hours) and the URL's length are bounds of the contract, checked before.
  if (maxWaiverDurationHours < 1) {
    invalid("settings.max_waiver_duration_hours", "Maximum waiver duration must be at least 1 hour.");
  }
  if (waiverLinkBaseUrl && !/^https?:\/\/\S+$/.test(waiverLinkBaseUrl)) {
    invalid("settings.waiver_link_base_url", "Waiver link base URL must be an http or https URL.");
  }
  if (defaultWaiverApprovalMode === WaiverApprovalMode.UNSPECIFIED) {
    invalid(
      "settings.default_waiver_approval_mode",
      "Choose a default waiver approval mode (AUTO or MANUAL).",
    );
  }
}

export async function updateSettings(
  deps: TenantServiceDeps,
  req: UpdateSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateSettingsResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const name = readName(req.name);
  if (req.settings) {
    checkSettings(req.settings);
    const { maxWaiverDurationHours, waiverLinkBaseUrl, defaultWaiverApprovalMode, requireSeparateApprover } =
      req.settings;
    // Left out, separation of duties keeps its current value, so older clients cannot turn it off.
    await saveTenantSettings(db, caller.tenantId, {
      defaultWaiverApprovalMode: WaiverApprovalMode[defaultWaiverApprovalMode],
      maxWaiverDurationHours,
      waiverLinkBaseUrl,
      ...(requireSeparateApprover === undefined ? {} : { requireSeparateApprover }),
    });
  }
  if (name !== undefined) await renameTenant(db, caller.tenantId, name);
  await auditCall(db, ctx, {
    targetType: "tenant",
    targetId: caller.tenantId,
    details: { name, settingsChanged: Boolean(req.settings) },
  });
  return { tenant: await loadTenantMessage(db, await requireTenant(db, caller.tenantId)) };
}
