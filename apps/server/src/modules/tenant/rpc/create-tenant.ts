import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CreateTenantRequest,
  CreateTenantResponseSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { requireInstanceAdmin } from "../../../auth/instance-admin";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { insertTenantWithAdministrator } from "../tenant-repository";
import {
  loadTenantMessage,
  readTenantName,
  requireTenant,
  type TenantServiceDeps,
  tenantSlug,
} from "../tenants";

/** A new tenant, made by an instance administrator, who becomes its first administrator. */
export async function createTenant(
  deps: TenantServiceDeps,
  req: CreateTenantRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateTenantResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  await requireInstanceAdmin(db, caller, "create tenants");
  const name = readTenantName(req.name);
  const id = crypto.randomUUID();
  const slug = tenantSlug(name, id);
  await insertTenantWithAdministrator(db, { id, name, slug }, caller.id, (tx) =>
    // Recorded in the tenant the administrator acted from.
    recordAudit(tx, ctx, { target: { type: "tenant", id, name }, after: { name, slug } }),
  );
  return { tenant: await loadTenantMessage(db, await requireTenant(db, id)) };
}
