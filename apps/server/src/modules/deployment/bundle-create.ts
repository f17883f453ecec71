import { randomBytes } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { renderFeedbackMessage } from "@palisade/policy-engine/compilers/compile-input";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import type { Database, Transaction } from "../../db/database";
import { enqueueBundleSync } from "../../jobs/bundle-sync-job";
import type { JobQueue } from "../../jobs/job-queue";
import {
  awsManagementAccountOf,
  type ConnectorRuntime,
  findHierarchyNodes,
} from "../connector/connector-api";
import { parseParameters, refuseManagementAccount, resolveScopes } from "./bundle-input";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { checkCompiles } from "./compile-check";
import { insertBundle } from "./deployment-repository";
import type { ManagedBy } from "./deployment-schema";
import type { TenantReads } from "./tenant-reads";

/** Attempts at a fresh policy key before giving up (keys are random; a clash is rare). */
const KEY_ATTEMPTS = 10;

export interface CreateBundleDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  publicUrl: string;
}

/** A bundle as asked for, with its name, namespace and mode already checked. */
export interface NewBundle {
  name: string;
  definition: Definition;
  scopes: readonly Scope[];
  excludedScopes: readonly Scope[];
  mode: "PREVENT" | "ALERT";
  parameters: Record<string, unknown> | undefined;
  isVisible: boolean;
  namespace: string | null;
  /** The tenant's default when absent. */
  waiverApprovalMode: string | undefined;
  createdBy: string;
  /** Applied from a file: its path and commit. */
  managedBy?: ManagedBy | null;
  /** Written in the bundle's transaction: the caller's audit record of the creation. */
  audit?: (tx: Transaction, bundle: BundleRow) => Promise<void>;
}

/** A bundle checked and ready to store. */
export interface PreparedBundle {
  input: NewBundle;
  parameters: Record<string, unknown>;
  scopes: StoredScope[];
  excluded: StoredScope[];
}

/**
 * Checks the bundle (parameters, scopes, that it compiles) without storing anything. Field
 * violations name the request's fields.
 */
export async function prepareBundle(
  deps: CreateBundleDeps,
  tenant: TenantReads,
  input: NewBundle,
): Promise<PreparedBundle> {
  const { definition, name, mode } = input;
  const parameters = parseParameters(definition, input.parameters);
  const nodes = await findHierarchyNodes(deps.db, tenant.tenantId, [
    ...input.scopes.map((s) => s.externalId.trim()),
    ...input.excludedScopes.map((s) => s.externalId.trim()),
  ]);
  const { scopes, excluded, connectorId } = resolveScopes(
    definition,
    input.scopes,
    input.excludedScopes,
    nodes,
  );
  refuseManagementAccount(scopes, await awsManagementAccountOf(deps, tenant.tenantId, connectorId));
  await checkCompiles(deps, tenant, definition, { parameters, mode, name, scopes, excluded });
  return { input, parameters, scopes, excluded };
}

/** Stores a prepared bundle with a fresh policy key and queues its deployment. */
export async function storeBundle(
  deps: CreateBundleDeps,
  tenant: TenantReads,
  prepared: PreparedBundle,
): Promise<BundleRow> {
  const { db, jobs } = deps;
  const { input, parameters, scopes, excluded } = prepared;
  const { definition, name, mode } = input;
  const settings = await tenant.settings();
  const linkBase = settings.waiverLinkBaseUrl || deps.publicUrl;
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    const key = generatePolicyKey((n) => randomBytes(n));
    const stored = await insertBundle(
      db,
      {
        tenantId: tenant.tenantId,
        key,
        name,
        policySlug: definition.slug,
        provider: providerOfEnforcer(definition.enforcer),
        mode,
        status: "PENDING",
        scopes,
        excludedScopes: excluded,
        parameters,
        feedbackMessage: renderFeedbackMessage({ definition, key, name, waiverLinkBaseUrl: linkBase }),
        affectedResourceTypes: definition.affected_resource_types,
        mainResourceType: definition.main_resource_type,
        isVisible: input.isVisible,
        namespace: input.namespace,
        waiverApprovalMode: input.waiverApprovalMode ?? settings.defaultWaiverApprovalMode,
        createdBy: input.createdBy,
        managedBy: input.managedBy ?? null,
      },
      scopes,
      input.audit,
    );
    if (!stored) continue;
    await enqueueBundleSync(jobs, {
      tenantId: tenant.tenantId,
      bundleId: stored.bundle.id,
      reason: "created",
    });
    return stored.bundle;
  }
  throw new ConnectError("Could not allocate a unique policy key; try again.", Code.Unavailable);
}

/** Checks, stores and queues one bundle. */
export async function createBundleNow(
  deps: CreateBundleDeps,
  tenant: TenantReads,
  input: NewBundle,
): Promise<BundleRow> {
  return storeBundle(deps, tenant, await prepareBundle(deps, tenant, input));
}
