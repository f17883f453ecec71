import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  CurrentUserSchema,
  type GetCurrentRequest,
  type GetCurrentResponseSchema,
} from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { findUserById } from "../../../auth/user-repository";
import { requireCaller } from "../../../rpc/call-context";
import { listUserTenants } from "../tenant-repository";
import { loadOwnTenantMessage, loadTenantMessage, requireTenant, type TenantServiceDeps } from "../tenants";
import { splitName } from "../user-names";

/** Who is signed in, in which tenant, with which role and permissions, and their other tenants. */
export async function getCurrent(
  deps: TenantServiceDeps,
  _req: GetCurrentRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetCurrentResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const tenant = await requireTenant(db, caller.tenantId);
  const tenants = caller.kind === "user" ? await listUserTenants(db, caller.id) : [tenant];
  const userRow = caller.kind === "user" ? await findUserById(db, caller.id) : undefined;
  const names = splitName(userRow?.name ?? caller.name);
  return {
    tenant: await loadOwnTenantMessage(db, tenant),
    user: create(CurrentUserSchema, {
      id: caller.id,
      email: userRow?.email ?? "",
      name: userRow?.name ?? caller.name,
      givenName: names.givenName,
      familyName: names.familyName,
      instanceAdmin: Boolean(userRow?.instanceAdmin),
    }),
    role: caller.role,
    permissions: [...caller.permissions],
    tenants: await Promise.all(tenants.map((row) => loadTenantMessage(db, row))),
  };
}
