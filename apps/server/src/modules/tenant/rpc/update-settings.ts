import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  TenantSettings,
  UpdateSettingsRequest,
  UpdateSettingsResponseSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { Database } from "../../../db/database";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { MAX_REQUESTER_DOMAINS, parseRequesterDomains } from "../requester-domains";
import {
  findTenantSettings,
  renameTenant,
  saveTenantSettings,
  type TenantSettingsRow,
} from "../tenant-repository";
import { loadOwnTenantMessage, readTenantName, requireTenant, type TenantServiceDeps } from "../tenants";

/** The message is the sentence a form shows beside the field. */
function invalid(field: string, message: string): never {
  throw invalidArgument(message, [{ field, message }]);
}

function readRequesterDomains(raw: readonly string[]): string[] {
  if (raw.length > MAX_REQUESTER_DOMAINS * 2) {
    invalid(
      "settings.waiver_requester_domains",
      `List at most ${MAX_REQUESTER_DOMAINS} waiver requester domains.`,
    );
  }
  const parsed = parseRequesterDomains(raw);
  if (!parsed.ok) invalid("settings.waiver_requester_domains", parsed.message);
  return parsed.domains;
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
  const name = req.name === undefined ? undefined : readTenantName(req.name);
  const before = await findTenantSettings(db, caller.tenantId);
  const tenant = await requireTenant(db, caller.tenantId);
  await db.transaction(async (tx) => {
    await saveChanges(tx, caller.tenantId, req.settings, name);
    const after = await findTenantSettings(tx, caller.tenantId);
    await recordAudit(tx, ctx, {
      target: { type: "tenant", id: caller.tenantId, name: name ?? tenant.name },
      before: { name: tenant.name, ...settingsOf(before) },
      after: { name: name ?? tenant.name, ...settingsOf(after) },
    });
  });
  return { tenant: await loadOwnTenantMessage(db, await requireTenant(db, caller.tenantId)) };
}

/** The settings as the audit record shows them. */
function settingsOf(row: TenantSettingsRow) {
  const { tenantId: _tenant, createdAt: _created, updatedAt: _updated, ...settings } = row;
  return settings;
}

async function saveChanges(
  db: Database,
  tenantId: string,
  settings: TenantSettings | undefined,
  name: string | undefined,
): Promise<void> {
  if (settings) {
    checkSettings(settings);
    const waiverRequesterDomains = readRequesterDomains(settings.waiverRequesterDomains);
    const {
      maxWaiverDurationHours,
      waiverLinkBaseUrl,
      defaultWaiverApprovalMode,
      requireSeparateApprover,
      eventRetentionDays,
      auditRetentionDays,
      requireMfa,
    } = settings;
    // Left out, separation of duties keeps its current value, so older clients cannot turn it off.
    await saveTenantSettings(db, tenantId, {
      defaultWaiverApprovalMode: WaiverApprovalMode[defaultWaiverApprovalMode],
      maxWaiverDurationHours,
      waiverLinkBaseUrl,
      waiverRequesterDomains,
      ...(requireSeparateApprover === undefined ? {} : { requireSeparateApprover }),
      ...(eventRetentionDays === undefined ? {} : { eventRetentionDays }),
      ...(auditRetentionDays === undefined ? {} : { auditRetentionDays }),
      ...(requireMfa === undefined ? {} : { requireMfa }),
    });
  }
  if (name !== undefined) await renameTenant(db, tenantId, name);
}
