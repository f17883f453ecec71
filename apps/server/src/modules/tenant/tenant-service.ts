import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  CurrentUserSchema,
  type Tenant,
  TenantSchema,
  type TenantService,
  TenantSettingsSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { Database } from "../../db/database";
import { callContext, requireCaller } from "../../rpc/call-context";
import { writeAudit } from "../audit/audit-log";
import {
  findTenant,
  findTenantSettings,
  findUserById,
  listUserTenants,
  renameTenant,
  saveTenantSettings,
  type TenantRow,
} from "./tenant-repository";
import { splitName } from "./user-names";

const MAX_TENANT_NAME = 100;
const MAX_WAIVER_HOURS = 72;

export function createTenantService(deps: { db: Database }): Partial<ServiceImpl<typeof TenantService>> {
  const { db } = deps;

  async function tenantMessage(row: TenantRow): Promise<Tenant> {
    const settings = await findTenantSettings(db, row.id);
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
      }),
    });
  }

  return {
    async getCurrent(_req, ctx) {
      const caller = requireCaller(ctx);
      const tenant = await findTenant(db, caller.tenantId);
      if (!tenant) throw new ConnectError("Your tenant no longer exists.", Code.NotFound);
      const tenants = caller.kind === "user" ? await listUserTenants(db, caller.id) : [tenant];
      const userRow = caller.kind === "user" ? await findUserById(db, caller.id) : undefined;
      const names = splitName(userRow?.name ?? caller.name);
      return {
        tenant: await tenantMessage(tenant),
        user: create(CurrentUserSchema, {
          id: caller.id,
          email: userRow?.email ?? "",
          name: userRow?.name ?? caller.name,
          givenName: names.givenName,
          familyName: names.familyName,
        }),
        role: caller.role,
        permissions: [...caller.permissions],
        tenants: await Promise.all(tenants.map(tenantMessage)),
      };
    },

    async updateSettings(req, ctx) {
      const caller = requireCaller(ctx);
      const name = req.name?.trim();
      if (name !== undefined && (name.length < 1 || name.length > MAX_TENANT_NAME)) {
        throw new ConnectError(
          `Tenant name must be 1 to ${MAX_TENANT_NAME} characters.`,
          Code.InvalidArgument,
        );
      }
      if (req.settings) {
        const { maxWaiverDurationHours, waiverLinkBaseUrl, defaultWaiverApprovalMode } = req.settings;
        if (maxWaiverDurationHours < 1 || maxWaiverDurationHours > MAX_WAIVER_HOURS) {
          throw new ConnectError(
            `Maximum waiver duration must be 1 to ${MAX_WAIVER_HOURS} hours.`,
            Code.InvalidArgument,
          );
        }
        if (waiverLinkBaseUrl && !/^https?:\/\/[^\s]{1,500}$/.test(waiverLinkBaseUrl)) {
          throw new ConnectError("Waiver link base URL must be an http or https URL.", Code.InvalidArgument);
        }
        if (defaultWaiverApprovalMode === WaiverApprovalMode.UNSPECIFIED) {
          throw new ConnectError(
            "Choose a default waiver approval mode (AUTO or MANUAL).",
            Code.InvalidArgument,
          );
        }
        await saveTenantSettings(db, caller.tenantId, {
          defaultWaiverApprovalMode: WaiverApprovalMode[defaultWaiverApprovalMode],
          maxWaiverDurationHours,
          waiverLinkBaseUrl,
        });
      }
      if (name !== undefined) await renameTenant(db, caller.tenantId, name);
      await writeAudit(db, callContext(ctx), {
        action: "TenantService.UpdateSettings",
        targetType: "tenant",
        targetId: caller.tenantId,
        details: { name, settingsChanged: Boolean(req.settings) },
      });
      const tenant = await findTenant(db, caller.tenantId);
      if (!tenant) throw new ConnectError("Your tenant no longer exists.", Code.NotFound);
      return { tenant: await tenantMessage(tenant) };
    },
  };
}
