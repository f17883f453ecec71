import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type {
  ListWaiverScopesRequest,
  ListWaiverScopesResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { isPolicyKeyFormat, normalizePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { scopeTypeOf as scopeTypeNamed } from "../../../rpc/common-message";
import { invalidField } from "../../../rpc/errors";
import { deploymentsOfBundle, findLiveBundleByKeyAnyTenant, scopeTypeOf } from "../../waiver/waiver-api";
import type { PolicyServiceDeps } from "../policies";
import { listWaiverScopes as listScopes } from "../waiver-scope-repository";

export const WAIVER_SCOPES_PAGE_SIZE = 50;
const MIN_SEARCH = 2;

/**
 * Public: where a waiver for the key may apply, so the request page can offer a choice by name.
 * Only scopes under the bundle's own scopes are answered, and only as many as a page holds.
 */
export async function listWaiverScopes(
  deps: PolicyServiceDeps,
  req: ListWaiverScopesRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListWaiverScopesResponseSchema>> {
  const key = normalizePolicyKey(req.key);
  if (!isPolicyKeyFormat(key)) {
    throw invalidField("key", "a policy key is 7 characters (0-9, A-Z without I, L, O, U).");
  }
  const bundle = await findLiveBundleByKeyAnyTenant(deps.db, key);
  if (!bundle) throw new ConnectError(`No policy with key ${key}.`, Code.NotFound);
  const roots = (await deploymentsOfBundle(deps.db, bundle.tenantId, bundle.id)).map((d) => ({
    externalId: d.scopeExternalId,
    type: ScopeType[scopeTypeOf(d.scopeExternalId)] ?? "UNSPECIFIED",
  }));
  const search = req.search?.trim() ?? "";
  const page = Math.max(1, req.page);
  // A declarative policy's waiver exempts a whole account: only accounts are offered.
  const accountsOnly = (await deps.bundleCard(key))?.waiverExemptsWholeAccount ?? false;
  const { rows, total } = await listScopes(deps.db, bundle.tenantId, roots, {
    search: search.length >= MIN_SEARCH ? search : undefined,
    types: accountsOnly ? ["AWS_ACCOUNT"] : undefined,
    limit: WAIVER_SCOPES_PAGE_SIZE,
    offset: (page - 1) * WAIVER_SCOPES_PAGE_SIZE,
  });
  return {
    scopes: rows.map((row) => ({
      externalId: row.externalId,
      name: row.name,
      type: scopeTypeNamed(row.type),
      parentName: row.parentName,
    })),
    total,
  };
}
