import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { CompileError } from "@palisade/policy-engine/compilers/compile-input";
import type { CloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import type { Logger } from "../../logger";
import { type ConnectorRuntime, findConnector } from "../connector/connector-api";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import type { BundleRow } from "./bundle-repository";
import { bundleStatus } from "./cloud-failure";
import { type DeploymentRow, findDeploymentsOfBundle } from "./deployment-repository";
import { setBundleOutcome } from "./sync-state-repository";

export interface EngineDeps {
  db: Database;
  catalogue: Catalogue;
  runtime: ConnectorRuntime;
  /** Public address of Palisade, for the waiver links in deny messages. */
  publicUrl: string;
  logger: Logger;
  /** Told once when a bundle turns FAILED (the tenant's "deployment failed" notification). */
  onBundleFailed?: (tenantId: string, bundleId: string) => Promise<void>;
  /** Told when something written to the cloud is expected to be enforced (Azure's propagation). */
  onPropagating?: (endsAt: Date) => Promise<void>;
  /** Runs work on one bundle while no other replica works on it (an advisory lock on PostgreSQL). */
  lock?: <T>(key: string, work: () => Promise<T>) => Promise<T>;
}

/** The bundle's definition in its tenant's catalogue, and every definition (for composed ones). */
export async function definitionsOf(
  deps: EngineDeps,
  bundle: BundleRow,
): Promise<{ definition?: Definition; all: Map<string, Definition> }> {
  const view = await loadTenantCatalogue(deps.db, deps.catalogue, bundle.tenantId);
  const all = new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition]));
  return { definition: all.get(bundle.policySlug), all };
}

/** The cloud the bundle's scopes live in, through their connector. */
export async function providerOf(
  deps: EngineDeps,
  bundle: BundleRow,
  deployments: DeploymentRow[],
): Promise<CloudProvider> {
  const connectorId = deployments.find((d) => d.connectorId)?.connectorId;
  const connector = connectorId ? await findConnector(deps.db, bundle.tenantId, connectorId) : undefined;
  if (!connector) {
    throw new CompileError(
      "CLOUD_INVALID_SCOPE",
      "The connector of the bundle's scopes was removed; add it again or move the bundle to other scopes",
    );
  }
  return deps.runtime.providerFor(connector);
}

/** Sums the bundle up from its deployments: its status and every error code they and its waivers have. */
export async function finishBundle(
  db: Database,
  bundle: BundleRow,
  waiverCodes: string[] = [],
): Promise<void> {
  const rows = await findDeploymentsOfBundle(db, bundle.tenantId, bundle.id);
  const codes = [
    ...new Set([...rows.map((d) => d.errorCode).filter((c): c is string => Boolean(c)), ...waiverCodes]),
  ];
  await setBundleOutcome(db, bundle.tenantId, bundle.id, {
    ...bundleState(bundle, rows),
    errorCodes: codes,
  });
}

/** The bundle's status from its deployments' and, while it propagates, when the last one is enforced. */
export function bundleState(
  bundle: Pick<BundleRow, "deletedAt">,
  rows: Pick<DeploymentRow, "status" | "propagationEndsAt">[],
): { status: string; propagationEndsAt: Date | null } {
  const status = bundle.deletedAt ? "DELETED" : bundleStatus(rows.map((d) => d.status));
  const ends = rows.flatMap((d) =>
    d.status === "PROPAGATING" && d.propagationEndsAt ? [d.propagationEndsAt.getTime()] : [],
  );
  return {
    status,
    propagationEndsAt: status === "PROPAGATING" && ends.length > 0 ? new Date(Math.max(...ends)) : null,
  };
}
