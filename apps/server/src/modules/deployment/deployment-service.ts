import type { ServiceImpl } from "@connectrpc/connect";
import type { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import type { DeploymentServiceDeps } from "./deployment-deps";
import { createBundle } from "./rpc/create-bundle";
import { createWaiver } from "./rpc/create-waiver";
import { deleteBundle } from "./rpc/delete-bundle";
import { deleteWaiver } from "./rpc/delete-waiver";
import { export$ } from "./rpc/export";
import { exportAsync } from "./rpc/export-async";
import { get } from "./rpc/get";
import { getBundle } from "./rpc/get-bundle";
import { getImpactPreview } from "./rpc/get-impact-preview";
import { listBundle } from "./rpc/list-bundle";
import { listDeployments } from "./rpc/list-deployments";
import { listNamespaces } from "./rpc/list-namespaces";
import { listValidDeploymentsByBundleIds } from "./rpc/list-valid-deployments-by-bundle-ids";
import { startImpactPreview } from "./rpc/start-impact-preview";
import { summaryBundle } from "./rpc/summary-bundle";
import { summaryNamespace } from "./rpc/summary-namespace";
import { sync } from "./rpc/sync";
import { triggerFetch } from "./rpc/trigger-fetch";
import { update } from "./rpc/update";
import { updateAsync } from "./rpc/update-async";
import { updateBundle } from "./rpc/update-bundle";

/** DeploymentManagerService: bundles, their deployments, and waivers recorded directly. */
export function createDeploymentManagerService(
  deps: DeploymentServiceDeps,
): ServiceImpl<typeof DeploymentManagerService> {
  return {
    listNamespaces: (req, ctx) => listNamespaces(deps, req, ctx),
    triggerFetch: (req, ctx) => triggerFetch(deps, req, ctx),
    sync: (req, ctx) => sync(deps, req, ctx),
    update: (req, ctx) => update(deps, req, ctx),
    updateAsync: (req, ctx) => updateAsync(deps, req, ctx),
    get: (req, ctx) => get(deps, req, ctx),
    createWaiver: (req, ctx) => createWaiver(deps, req, ctx),
    deleteWaiver: (req, ctx) => deleteWaiver(deps, req, ctx),
    createBundle: (req, ctx) => createBundle(deps, req, ctx),
    getBundle: (req, ctx) => getBundle(deps, req, ctx),
    updateBundle: (req, ctx) => updateBundle(deps, req, ctx),
    deleteBundle: (req, ctx) => deleteBundle(deps, req, ctx),
    listBundle: (req, ctx) => listBundle(deps, req, ctx),
    summaryBundle: (req, ctx) => summaryBundle(deps, req, ctx),
    summaryNamespace: (req, ctx) => summaryNamespace(deps, req, ctx),
    listDeployments: (req, ctx) => listDeployments(deps, req, ctx),
    export: (req, ctx) => export$(deps, req, ctx),
    exportAsync: (req, ctx) => exportAsync(deps, req, ctx),
    listValidDeploymentsByBundleIds: (req, ctx) => listValidDeploymentsByBundleIds(deps, req, ctx),
    startImpactPreview: (req, ctx) => startImpactPreview(deps, req, ctx),
    getImpactPreview: (req, ctx) => getImpactPreview(deps, req, ctx),
  };
}
