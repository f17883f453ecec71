import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { loadTenantCatalogue, type TenantCatalogue } from "../policy-definition/policy-definition-api";
import { findTenantSettings, type TenantSettingsRow } from "../tenant/tenant-api";

/** Runs `load` on the first call only; later calls share its result (or its failure). */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => {
    result ??= load();
    return result;
  };
}

/**
 * What one RPC call reads of its tenant. Each read happens at most once per call, however many
 * steps (definition lookup, compile check, feedback message) need it; nothing outlives the call.
 */
export interface TenantReads {
  tenantId: string;
  catalogue: () => Promise<TenantCatalogue>;
  settings: () => Promise<TenantSettingsRow>;
}

export function tenantReads(deps: { db: Database; catalogue: Catalogue }, tenantId: string): TenantReads {
  return {
    tenantId,
    catalogue: once(() => loadTenantCatalogue(deps.db, deps.catalogue, tenantId)),
    settings: once(() => findTenantSettings(deps.db, tenantId)),
  };
}
