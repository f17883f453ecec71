import type { HandlerContext } from "@connectrpc/connect";
import type { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { ListBundleFilter } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import type { Database } from "../../db/database";
import { requireCaller } from "../../rpc/call-context";
import type { ExportRequest, ExportService } from "../export/export-api";
import { exportFormat, readBundleFilter } from "./bundle-filter";
import { allBundles, type BundleFilter } from "./bundle-query-repository";
import type { StoredScope } from "./bundle-repository";
import { findDeploymentsOfBundle } from "./deployment-repository";

const BUNDLES_EXPORT = "bundles";

const HEADER = [
  "bundle_id",
  "key",
  "name",
  "policy_slug",
  "provider",
  "mode",
  "bundle_status",
  "namespace",
  "deployment_id",
  "scope_id",
  "scope_name",
  "deployment_status",
  "error_code",
  "error_message",
  "created_by",
  "created_at",
];

/** The "bundles" export: one line per deployment of every matching bundle. */
export function defineBundleExport(deps: { db: Database; exports: ExportService }): void {
  const { db } = deps;
  deps.exports.define(BUNDLES_EXPORT, async (tenantId, params) => {
    const rows = await allBundles(db, tenantId, params.filter as BundleFilter);
    const lines: unknown[][] = [];
    for (const bundle of rows) {
      for (const deployment of await findDeploymentsOfBundle(db, tenantId, bundle.id)) {
        const scope = deployment.scope as StoredScope;
        lines.push([
          bundle.id,
          bundle.key,
          bundle.name,
          bundle.policySlug,
          bundle.provider.toUpperCase(),
          bundle.mode,
          bundle.status,
          bundle.namespace ?? "",
          deployment.id,
          scope.externalId,
          scope.name,
          deployment.status,
          deployment.errorCode ?? "",
          deployment.errorMessage ?? "",
          bundle.createdBy,
          bundle.createdAt.toISOString(),
        ]);
      }
    }
    return {
      header: HEADER,
      total: lines.length,
      pages: (async function* () {
        yield lines;
      })(),
    };
  });
}

/**
 * What Export (written now) and ExportAsync (queued) ask of the export service alike: the caller's
 * bundles matching the filter, in the format asked for. A bad filter fails the call, not the export.
 */
export function bundleExportRequest(
  req: { filter?: ListBundleFilter; format: ExportFormat },
  ctx: HandlerContext,
): ExportRequest {
  const caller = requireCaller(ctx);
  return {
    tenantId: caller.tenantId,
    kind: BUNDLES_EXPORT,
    params: { filter: readBundleFilter(req.filter) },
    format: exportFormat(req.format),
    createdBy: caller.id,
    ctx,
  };
}
