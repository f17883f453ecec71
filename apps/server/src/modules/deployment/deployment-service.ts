import { defineBundleExport } from "./bundle-export";
import type { DeploymentRpc, DeploymentServiceDeps } from "./deployment-deps";
import { createBundle } from "./rpc/create-bundle";
import { createWaiver } from "./rpc/create-waiver";
import { deleteBundle } from "./rpc/delete-bundle";
import { deleteWaiver } from "./rpc/delete-waiver";
import { exportBundles } from "./rpc/export";
import { exportAsync } from "./rpc/export-async";
import { get } from "./rpc/get";
import { getBundle } from "./rpc/get-bundle";
import { getImpactPreview } from "./rpc/get-impact-preview";
import { listBundle } from "./rpc/list-bundle";
import { listDeployments } from "./rpc/list-deployments";
import { listNamespaces } from "./rpc/list-namespaces";
import { listValidDeploymentsByBundleIds } from "./rpc/list-valid-deployments-by-bundle-ids";
import { startImpactPreviewRpc } from "./rpc/start-impact-preview";
import { summaryBundle } from "./rpc/summary-bundle";
import { summaryNamespace } from "./rpc/summary-namespace";
import { sync } from "./rpc/sync";
import { triggerFetch } from "./rpc/trigger-fetch";
import { update } from "./rpc/update";
import { updateAsync } from "./rpc/update-async";
import { updateBundle } from "./rpc/update-bundle";

/** DeploymentManagerService: bundles, their deployments, and waivers recorded directly. */
export function createDeploymentManagerService(deps: DeploymentServiceDeps): DeploymentRpc {
  defineBundleExport(deps);
  return {
    listNamespaces: listNamespaces(deps),
    triggerFetch: triggerFetch(deps),
    sync: sync(deps),
    update: update(deps),
    updateAsync: updateAsync(deps),
    get: get(deps),
    createWaiver: createWaiver(deps),
    deleteWaiver: deleteWaiver(deps),
    createBundle: createBundle(deps),
    getBundle: getBundle(deps),
    updateBundle: updateBundle(deps),
    deleteBundle: deleteBundle(deps),
    listBundle: listBundle(deps),
    summaryBundle: summaryBundle(deps),
    summaryNamespace: summaryNamespace(deps),
    listDeployments: listDeployments(deps),
    export: exportBundles(deps),
    exportAsync: exportAsync(deps),
    listValidDeploymentsByBundleIds: listValidDeploymentsByBundleIds(deps),
    startImpactPreview: startImpactPreviewRpc(deps),
    getImpactPreview: getImpactPreview(deps),
  };
}
