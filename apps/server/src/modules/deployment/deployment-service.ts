import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import { createBundleEngine } from "./bundle-engine";
import { defineBundleExport } from "./bundle-export";
import { registerDeploymentJobs } from "./bundle-sync";
import type { DeploymentRpc, DeploymentServiceDeps } from "./deployment-deps";
import { createBundle } from "./rpc/create-bundle";
import { createWaiver } from "./rpc/create-waiver";
import { deleteBundle } from "./rpc/delete-bundle";
import { deleteWaiver } from "./rpc/delete-waiver";
import { exportBundles } from "./rpc/export";
import { exportAsync } from "./rpc/export-async";
import { get } from "./rpc/get";
import { getBundle } from "./rpc/get-bundle";
import { listBundle } from "./rpc/list-bundle";
import { listDeployments } from "./rpc/list-deployments";
import { listNamespaces } from "./rpc/list-namespaces";
import { listValidDeploymentsByBundleIds } from "./rpc/list-valid-deployments-by-bundle-ids";
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
  };
}

/**
 * The deployment manager with its engine: registers the deploy, delete and reconcile jobs (and the
 * reconcile schedule) before the service answers.
 */
export async function startDeploymentManagerService(
  deps: Omit<DeploymentServiceDeps, "engine"> & { jobs: JobQueue; runtime: ConnectorRuntime; logger: Logger },
): Promise<DeploymentRpc> {
  const engine = createBundleEngine({
    db: deps.db,
    catalogue: deps.catalogue,
    runtime: deps.runtime,
    publicUrl: deps.publicUrl,
    logger: deps.logger,
  });
  await registerDeploymentJobs(deps.jobs, engine);
  return createDeploymentManagerService({ ...deps, engine });
}
