import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import {
  CloudProvider,
  ErrorDetailSchema,
  ExportFormat,
  Order,
  type Scope,
  ScopeSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import {
  BundleOrderBy,
  type DeploymentManagerService,
  type ListBundleFilter,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode, WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { checkScpTargetLimits, compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import { CompileError, renderFeedbackMessage } from "@palisade/policy-engine/compilers/compile-input";
import {
  generatePolicyKey,
  isPolicyKeyFormat,
  normalizePolicyKey,
} from "@palisade/policy-engine/keys/policy-key";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import { FETCH_JOB } from "../event/event-pipeline";
import type { ExportFormatName, ExportService } from "../export/export-service";
import { searchText } from "../policy-definition/definition-query";
import { loadTenantCatalogue } from "../policy-definition/tenant-catalogue";
import { findTenantSettings } from "../tenant/tenant-repository";
import { findWaiver as findWaiverView } from "../waiver/waiver-repository";
import { waiverMessage } from "../waiver/waiver-service";
import { type BundleEngine, createBundleEngine, TransientCloudError } from "./bundle-engine";
import { parseName, parseNamespace, parseParameters, resolveScopes } from "./bundle-input";
import {
  enqueueBundleDelete,
  enqueueBundleSync,
  enqueueReconcile,
  registerDeploymentJobs,
} from "./bundle-sync";
import { compileFailure } from "./cloud-failure";
import {
  bundleMessage,
  deploymentMessage,
  errorCodeOfName,
  excludedBundleFields,
  extendedBundleMessage,
  extendedDeploymentMessage,
  modeName,
  statusName,
} from "./deployment-message";
import {
  allBundles,
  type BundleFilter,
  type BundleOrder,
  type BundleRow,
  bundleCounts,
  cancelWaiver,
  cancelWaiversOfBundle,
  findBundle,
  findBundleByKey,
  findDeployment,
  findDeploymentsOfBundle,
  findHierarchyNodes,
  insertBundle,
  insertWaiver,
  listBundles,
  listDeploymentsWithCounts,
  listNamespaces,
  palisadeScpsPerTarget,
  replaceBundleTargets,
  type StoredScope,
  summariseBundles,
  summariseNamespaceEvents,
  summariseNamespaceWaivers,
  updateBundle,
  updateDeploymentsOfBundle,
  validDeploymentIds,
} from "./deployment-repository";

const KEY_ATTEMPTS = 10;
const MAX_FILTER_VALUES = 200;
const MAX_FILTER_VALUE = 300;
const MAX_COMMENT = 220;
/** Longest a directly recorded waiver may last, as for requested ones. */
const MAX_WAIVER_SECONDS = 72 * 3600;

export interface DeploymentServiceDeps {
  db: Database;
  catalogue: Catalogue;
  jobs: JobQueue;
  engine: BundleEngine;
  exports: ExportService;
  /** Public address of Palisade; waiver links use the tenant's own base URL when it has one. */
  publicUrl: string;
}

const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

/** A failure the product names: its code travels as an ErrorDetail beside the sentence. */
function productError(code: Code, productCode: string, message: string): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: ErrorDetailSchema, value: { code: errorCodeOfName(productCode), message } },
  ]);
}
const bundleNotFound = () => new ConnectError("No bundle with this id or key in this tenant.", Code.NotFound);
const deploymentNotFound = () =>
  new ConnectError("No deployment with this id or key in this tenant.", Code.NotFound);

function strings(field: string, values: readonly string[]): string[] {
  if (values.length > MAX_FILTER_VALUES) throw invalid(`${field}: at most ${MAX_FILTER_VALUES} values.`);
  if (values.some((value) => value.length > MAX_FILTER_VALUE)) {
    throw invalid(`${field}: each value is at most ${MAX_FILTER_VALUE} characters.`);
  }
  return [...values];
}

const PROVIDER_NAMES: Partial<Record<CloudProvider, string>> = {
  [CloudProvider.AWS]: "aws",
  [CloudProvider.AZURE]: "azure",
};

export function readBundleFilter(filter: ListBundleFilter | undefined): BundleFilter {
  return {
    search: searchText(filter?.search, "filter.search"),
    modes: (filter?.modes ?? []).map((mode) => modeName(mode, "filter.modes")),
    statuses: (filter?.status ?? []).map((status) => statusName(status, "filter.status")),
    namespaces: strings("filter.namespaces", filter?.namespaces ?? []),
    policySlugs: strings("filter.policy_slugs", filter?.policySlugs ?? []),
    affectedResourceTypes: strings("filter.affected_resource_types", filter?.affectedResourceTypes ?? []),
    mainResourceTypes: strings("filter.main_resource_types", filter?.mainResourceTypes ?? []),
    scopes: strings("filter.scopes", filter?.scopes ?? []),
    providers: (filter?.cloudProviders ?? []).map((provider) => {
      const name = PROVIDER_NAMES[provider];
      if (!name) throw invalid("filter.cloud_providers: use AWS or AZURE.");
      return name;
    }),
  };
}

const ORDERS: Record<BundleOrderBy, BundleOrder> = {
  [BundleOrderBy.UNSPECIFIED]: "created_at",
  [BundleOrderBy.CREATED_AT]: "created_at",
  [BundleOrderBy.NAME]: "name",
  [BundleOrderBy.MODE]: "mode",
  [BundleOrderBy.STATUS]: "status",
  [BundleOrderBy.PREVENTIONS_COUNT]: "preventions",
};

function exportFormat(format: ExportFormat): ExportFormatName {
  return format === ExportFormat.JSON ? "json" : "csv";
}

/** Both write permissions are needed for any change, so either mode may be chosen. */
export function createDeploymentManagerService(
  deps: DeploymentServiceDeps,
): ServiceImpl<typeof DeploymentManagerService> {
  const { db, catalogue, jobs, engine, exports } = deps;

  exports.define("bundles", async (tenantId, params) => {
    const rows = await allBundles(db, tenantId, params.filter as BundleFilter);
    const lines: unknown[][] = [];
    for (const bundle of rows) {
      for (const deployment of await findDeploymentsOfBundle(db, bundle.id, tenantId)) {
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
      header: [
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
      ],
      total: lines.length,
      pages: (async function* () {
        yield lines;
      })(),
    };
  });

  async function audit(
    ctx: HandlerContext,
    action: string,
    targetType: string,
    targetId: string,
    details = {},
  ) {
    await writeAudit(db, callContext(ctx), { action: `deployment.${action}`, targetType, targetId, details });
  }

  async function bundleById(caller: Caller, id: string): Promise<BundleRow> {
    if (!id) throw invalid("id: required.");
    const bundle = await findBundle(db, caller.tenantId, id);
    if (!bundle) throw bundleNotFound();
    return bundle;
  }

  async function bundleByKey(caller: Caller, raw: string): Promise<BundleRow> {
    const key = normalizePolicyKey(raw);
    if (!isPolicyKeyFormat(key))
      throw invalid("key: a policy key is 7 characters (0-9, A-Z without I, L, O, U).");
    const bundle = await findBundleByKey(db, key);
    // Keys are unique across tenants; another tenant's key is simply not found here.
    if (!bundle || bundle.tenantId !== caller.tenantId) throw bundleNotFound();
    return bundle;
  }

  function liveBundle(bundle: BundleRow): BundleRow {
    if (bundle.deletedAt) {
      throw new ConnectError(
        "The bundle was deleted; it cannot be changed any more.",
        Code.FailedPrecondition,
      );
    }
    return bundle;
  }

  async function waiverLinkBase(tenantId: string): Promise<string> {
    const settings = await findTenantSettings(db, tenantId);
    return settings.waiverLinkBaseUrl || deps.publicUrl;
  }

  async function definitionFor(caller: Caller, slug: string) {
    const view = await loadTenantCatalogue(db, catalogue, caller.tenantId);
    const entry = view.bySlug.get(slug.trim());
    if (!entry) throw invalid(`policy_slug: no policy definition "${slug}" in this tenant's catalogue.`);
    return entry.definition;
  }

  /**
   * Compiles the bundle as it would be deployed (without waivers) so that what can never deploy
   * (an SCP over the size limit, Azure scopes without a common home) is refused before it is stored.
   */
  async function checkCompiles(
    caller: Caller,
    definition: Definition,
    bundle: {
      id?: string;
      key?: string;
      parameters: unknown;
      mode: string;
      name: string;
      scopes: StoredScope[];
      excluded: StoredScope[];
    },
  ): Promise<void> {
    const view = await loadTenantCatalogue(db, catalogue, caller.tenantId);
    const input = {
      definition,
      definitions: new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition])),
      parameters: bundle.parameters as Record<string, unknown>,
      mode: bundle.mode as "PREVENT" | "ALERT",
      // Keys have a fixed length, so a stand-in gives the real document size.
      key: "0000000",
      name: bundle.name,
      scopes: bundle.scopes.map((scope) => ({ id: scope.externalId })),
      excludedScopes: bundle.excluded.map((scope) => ({ id: scope.externalId })),
      waivers: [],
      waiverLinkBaseUrl: deps.publicUrl,
      now: new Date(),
    };
    try {
      if (definition.enforcer === "aws_scp") {
        const compiled = compileScp(input);
        if (compiled.attach) {
          // FullAWSAccess takes one of the five places on every target.
          const used = await palisadeScpsPerTarget(db, caller.tenantId, compiled.targets, bundle.id);
          const counts = Object.fromEntries(compiled.targets.map((t) => [t, (used[t] ?? 0) + 1]));
          checkScpTargetLimits(bundle.key ?? "this bundle", compiled.targets, counts);
        }
      } else compileAzureBundle(input);
    } catch (error) {
      if (!(error instanceof CompileError)) throw error;
      const failure = compileFailure(error);
      throw productError(Code.InvalidArgument, failure.code, failure.message);
    }
  }

  async function newKey(): Promise<string> {
    return generatePolicyKey((n) => randomBytes(n));
  }

  async function deploymentFor(
    caller: Caller,
    lookup: { case: "id" | "key"; value: string } | { case: undefined },
  ) {
    if (lookup.case === "id") {
      const row = await findDeployment(db, caller.tenantId, lookup.value);
      if (!row) throw deploymentNotFound();
      return row;
    }
    if (lookup.case === "key") {
      const bundle = await bundleByKey(caller, lookup.value).catch(() => {
        throw deploymentNotFound();
      });
      const rows = await findDeploymentsOfBundle(db, bundle.id, caller.tenantId);
      const row = rows.find((d) => d.status !== "DELETED") ?? rows[0];
      if (!row) throw deploymentNotFound();
      return row;
    }
    throw invalid("id or key: required.");
  }

  /** Changes the mode of the deployment's bundle: one policy serves all of a bundle's scopes. */
  async function changeMode(ctx: HandlerContext, id: string, mode: DeploymentMode) {
    const caller = requireCaller(ctx);
    if (!id) throw invalid("id: required.");
    const name = modeName(mode);
    const deployment = await findDeployment(db, caller.tenantId, id);
    if (!deployment) throw deploymentNotFound();
    const bundle = liveBundle(await bundleById(caller, deployment.bundleId));
    const updated = await updateBundle(db, caller.tenantId, bundle.id, {
      mode: name,
      editedBy: caller.name,
      editedAt: new Date(),
    });
    if (!updated) throw bundleNotFound();
    await replaceBundleTargets(db, updated, undefined);
    await audit(ctx, "Update", "deployment", id, { mode: name });
    return { bundle: updated, deploymentId: id };
  }

  return {
    async listNamespaces(_req, ctx) {
      const caller = requireCaller(ctx);
      return { namespaces: await listNamespaces(db, caller.tenantId) };
    },

    async triggerFetch(req, ctx) {
      const caller = requireCaller(ctx);
      const bundle = await bundleById(caller, req.id);
      const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId, bundleId: bundle.id });
      // The events the bundle caused are read from its connector's audit stream.
      const connectorId = (bundle.scopes as StoredScope[])[0]?.connectorId;
      if (connectorId) await jobs.send(FETCH_JOB, { tenantId: caller.tenantId, connectorId });
      return { jobId: jobId ?? "" };
    },

    async sync(_req, ctx) {
      const caller = requireCaller(ctx);
      const jobId = await enqueueReconcile(jobs, { tenantId: caller.tenantId });
      await audit(ctx, "Sync", "tenant", caller.tenantId);
      return { jobId: jobId ?? "" };
    },

    async update(req, ctx) {
      const caller = requireCaller(ctx);
      const { bundle, deploymentId } = await changeMode(ctx, req.id, req.mode);
      // Waits for the cloud: the change is applied in this call; a throttled cloud leaves it to the job.
      try {
        await engine.syncBundle(caller.tenantId, bundle.id, { lastAttempt: false });
      } catch (error) {
        if (!(error instanceof TransientCloudError)) throw error;
        await enqueueBundleSync(jobs, {
          tenantId: caller.tenantId,
          bundleId: bundle.id,
          reason: "mode changed",
        });
      }
      const row = await findDeployment(db, caller.tenantId, deploymentId);
      if (!row) throw deploymentNotFound();
      if (row.status === "FAILED") {
        throw productError(
          Code.FailedPrecondition,
          row.errorCode ?? "DEPLOYMENT_SYNC_FAILED",
          row.errorMessage ?? "The cloud did not accept the change.",
        );
      }
      return { deployment: deploymentMessage(row) };
    },

    async updateAsync(req, ctx) {
      const caller = requireCaller(ctx);
      const { bundle, deploymentId } = await changeMode(ctx, req.id, req.mode);
      const jobId = await enqueueBundleSync(jobs, {
        tenantId: caller.tenantId,
        bundleId: bundle.id,
        reason: "mode changed",
      });
      const row = await findDeployment(db, caller.tenantId, deploymentId);
      if (!row) throw deploymentNotFound();
      return { deployment: deploymentMessage(row), jobId: jobId ?? "" };
    },

    async get(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await deploymentFor(caller, req.lookup);
      const { items } = await listDeploymentsWithCounts(db, caller.tenantId, { ids: [row.id] });
      const item = items[0];
      if (!item) throw deploymentNotFound();
      return { deployment: extendedDeploymentMessage(item.deployment, item.counts) };
    },

    async createWaiver(req, ctx) {
      const caller = requireCaller(ctx);
      const bundle = liveBundle(await bundleByKey(caller, req.key));
      if (!req.expiresAt) throw invalid("expires_at: required.");
      const expiresAt = timestampDate(req.expiresAt);
      const seconds = Math.round((expiresAt.getTime() - Date.now()) / 1000);
      if (seconds <= 0) throw invalid("expires_at: must be in the future.");
      if (seconds > MAX_WAIVER_SECONDS) throw invalid("expires_at: at most 72 hours from now.");
      const request = req.waiverRequest;
      const comment = request?.requester?.comment.trim() ?? "";
      if (comment.length > MAX_COMMENT)
        throw invalid(`waiver_request.requester.comment: at most ${MAX_COMMENT} characters.`);
      const target = request?.target;
      const scope = target?.case === "targetScope" ? target.value.externalId.trim() : undefined;
      const resource = target?.case === "resource" ? target.value.externalId.trim() : undefined;
      const principalArn = target?.case === "principalArn" ? target.value.trim() : undefined;
      if (
        [scope, resource, principalArn].some(
          (value) => value !== undefined && (value === "" || value.length > 1024),
        )
      ) {
        throw invalid("waiver_request.target: a scope, resource or principal of 1 to 1024 characters.");
      }
      const deployments = (await findDeploymentsOfBundle(db, bundle.id, caller.tenantId)).filter(
        (d) => d.status !== "DELETED" && d.status !== "DELETING",
      );
      const deployment =
        deployments.find(
          (d) => scope !== undefined && d.scopeExternalId.toLowerCase() === scope.toLowerCase(),
        ) ?? deployments[0];
      if (!deployment)
        throw new ConnectError("The bundle has no live deployment to waive.", Code.FailedPrecondition);
      const now = new Date();
      const row = await insertWaiver(db, {
        tenantId: caller.tenantId,
        deploymentId: deployment.id,
        policyKey: bundle.key,
        createSource:
          request && request.createSource !== WaiverCreateSource.UNSPECIFIED
            ? WaiverCreateSource[request.createSource]
            : "SYSTEM",
        requesterName: request?.requester?.name.trim() || caller.name,
        requesterIdentifier: request?.requester?.identifier.trim() || caller.email || caller.id,
        requesterUserId: caller.kind === "user" ? caller.id : null,
        comment,
        durationSeconds: seconds,
        expiresAt,
        scope: scope ?? null,
        resource: resource ?? null,
        principalArn: principalArn ?? null,
        status: "ACTIVE",
        approvalType: "AUTO",
        reviewerName: caller.name,
        reviewerIdentifier: caller.email ?? caller.id,
        reviewedAt: now,
        deploymentStatus: "PENDING",
      });
      await audit(ctx, "CreateWaiver", "waiver", row.id, {
        key: bundle.key,
        expiresAt: expiresAt.toISOString(),
      });
      await enqueueBundleSync(jobs, {
        tenantId: caller.tenantId,
        bundleId: bundle.id,
        reason: "waiver created",
      });
      const view = await findWaiverView(db, caller.tenantId, row.id);
      if (!view) throw new ConnectError("The waiver was not stored.", Code.Internal);
      return { waiver: waiverMessage(view) };
    },

    async deleteWaiver(req, ctx) {
      const caller = requireCaller(ctx);
      if (!req.id) throw invalid("id: required.");
      const view = await findWaiverView(db, caller.tenantId, req.id);
      if (!view) throw new ConnectError("No waiver with this id in this tenant.", Code.NotFound);
      const cancelled = await cancelWaiver(db, caller.tenantId, req.id);
      if (!cancelled) {
        throw new ConnectError(
          `The waiver is already ${view.status.toLowerCase()}; only pending or active waivers can be deleted.`,
          Code.FailedPrecondition,
        );
      }
      await audit(ctx, "DeleteWaiver", "waiver", req.id);
      await enqueueBundleSync(jobs, {
        tenantId: caller.tenantId,
        bundleId: view.bundleId,
        reason: "waiver deleted",
      });
      return {};
    },

    async createBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const name = parseName(req.name);
      if (!req.policySlug.trim()) throw invalid("policy_slug: required.");
      const mode = modeName(req.mode);
      const namespace = parseNamespace(req.namespace);
      const definition = await definitionFor(caller, req.policySlug);
      const parameters = parseParameters(definition, req.parameters);
      const nodes = await findHierarchyNodes(db, caller.tenantId, [
        ...req.scopes.map((s) => s.externalId.trim()),
        ...req.excludedScopes.map((s) => s.externalId.trim()),
      ]);
      const { scopes, excluded } = resolveScopes(definition, req.scopes, req.excludedScopes, nodes);
      await checkCompiles(caller, definition, { parameters, mode, name, scopes, excluded });
      const approval = req.waiverSettings?.approvalMode ?? WaiverApprovalMode.UNSPECIFIED;
      const approvalMode =
        approval === WaiverApprovalMode.UNSPECIFIED
          ? (await findTenantSettings(db, caller.tenantId)).defaultWaiverApprovalMode
          : WaiverApprovalMode[approval];
      const linkBase = await waiverLinkBase(caller.tenantId);

      for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
        const key = await newKey();
        const stored = await insertBundle(
          db,
          {
            tenantId: caller.tenantId,
            key,
            name,
            policySlug: definition.slug,
            provider: definition.enforcer === "aws_scp" ? "aws" : "azure",
            mode,
            status: "PENDING",
            scopes,
            excludedScopes: excluded,
            parameters,
            feedbackMessage: renderFeedbackMessage({ definition, key, name, waiverLinkBaseUrl: linkBase }),
            affectedResourceTypes: definition.affected_resource_types,
            mainResourceType: definition.main_resource_type,
            isVisible: req.isVisible,
            namespace,
            waiverApprovalMode: approvalMode,
            createdBy: caller.name,
          },
          scopes,
        );
        if (!stored) continue;
        await audit(ctx, "CreateBundle", "bundle", stored.bundle.id, {
          key,
          policySlug: definition.slug,
          mode,
          scopes: scopes.map((s) => s.externalId),
        });
        await enqueueBundleSync(jobs, {
          tenantId: caller.tenantId,
          bundleId: stored.bundle.id,
          reason: "created",
        });
        return { bundle: bundleMessage(stored.bundle) };
      }
      throw new ConnectError("Could not allocate a unique policy key; try again.", Code.Unavailable);
    },

    async getBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const excluded = excludedBundleFields(req.excludeMask?.paths);
      const bundle =
        req.lookup.case === "id"
          ? await bundleById(caller, req.lookup.value)
          : req.lookup.case === "key"
            ? await bundleByKey(caller, req.lookup.value)
            : undefined;
      if (!bundle) throw invalid("id or key: required.");
      return { bundle: extendedBundleMessage(bundle, await bundleCounts(db, bundle.id), excluded) };
    },

    async updateBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const bundle = liveBundle(await bundleById(caller, req.id));
      const definition = await definitionFor(caller, bundle.policySlug);
      const changes: Partial<BundleRow> = {};
      let redeploy = false;
      if (req.name !== undefined) {
        changes.name = parseName(req.name);
        redeploy ||= changes.name !== bundle.name;
      }
      if (req.mode !== undefined) {
        changes.mode = modeName(req.mode);
        redeploy ||= changes.mode !== bundle.mode;
      }
      if (req.namespace !== undefined) changes.namespace = parseNamespace(req.namespace);
      if (req.isVisible !== undefined) changes.isVisible = req.isVisible;
      const approval = req.waiverSettings?.approvalMode ?? WaiverApprovalMode.UNSPECIFIED;
      if (approval !== WaiverApprovalMode.UNSPECIFIED)
        changes.waiverApprovalMode = WaiverApprovalMode[approval];
      if (req.parameters !== undefined) {
        changes.parameters = parseParameters(definition, req.parameters);
        redeploy = true;
      }
      let targets: StoredScope[] | undefined;
      if (req.scopes.length > 0 || req.excludedScopes !== undefined) {
        const requested = req.scopes.length > 0 ? req.scopes : (bundle.scopes as StoredScope[]).map(asScope);
        const excludedRequested =
          req.excludedScopes !== undefined
            ? req.excludedScopes.items
            : (bundle.excludedScopes as StoredScope[]).map(asScope);
        const nodes = await findHierarchyNodes(db, caller.tenantId, [
          ...requested.map((s) => s.externalId.trim()),
          ...excludedRequested.map((s) => s.externalId.trim()),
        ]);
        const resolved = resolveScopes(definition, requested, excludedRequested, nodes);
        const connectors = new Set([
          ...(bundle.scopes as StoredScope[]).map((s) => s.connectorId),
          resolved.connectorId,
        ]);
        if (connectors.size > 1)
          throw invalid("scopes: a bundle stays with the connector it was created on.");
        targets = resolved.scopes;
        changes.scopes = resolved.scopes;
        changes.excludedScopes = resolved.excluded;
        redeploy = true;
      }
      if (changes.name !== undefined) {
        changes.feedbackMessage = renderFeedbackMessage({
          definition,
          key: bundle.key,
          name: changes.name,
          waiverLinkBaseUrl: await waiverLinkBase(caller.tenantId),
        });
      }
      if (redeploy) {
        await checkCompiles(caller, definition, {
          id: bundle.id,
          key: bundle.key,
          parameters: changes.parameters ?? bundle.parameters,
          mode: changes.mode ?? bundle.mode,
          name: changes.name ?? bundle.name,
          scopes: (changes.scopes ?? bundle.scopes) as StoredScope[],
          excluded: (changes.excludedScopes ?? bundle.excludedScopes) as StoredScope[],
        });
      }
      const updated = await updateBundle(db, caller.tenantId, bundle.id, {
        ...changes,
        editedBy: caller.name,
        editedAt: new Date(),
      });
      if (!updated) throw bundleNotFound();
      if (redeploy) {
        await replaceBundleTargets(db, updated, targets);
        await enqueueBundleSync(jobs, { tenantId: caller.tenantId, bundleId: bundle.id, reason: "updated" });
      } else {
        // Nothing the cloud sees changed: the deployments keep their status.
        await updateDeploymentsOfBundle(db, bundle.id, { isVisible: updated.isVisible });
      }
      await audit(ctx, "UpdateBundle", "bundle", bundle.id, { fields: Object.keys(changes), redeploy });
      const fresh = await findBundle(db, caller.tenantId, bundle.id);
      return { bundle: bundleMessage(fresh ?? updated) };
    },

    async deleteBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const bundle = await bundleById(caller, req.id);
      if (!bundle.deletedAt) {
        await updateBundle(db, caller.tenantId, bundle.id, {
          deletedAt: new Date(),
          status: "DELETED",
          editedBy: caller.name,
          editedAt: new Date(),
        });
        await cancelWaiversOfBundle(db, bundle.id);
        await audit(ctx, "DeleteBundle", "bundle", bundle.id, { key: bundle.key });
      }
      await enqueueBundleDelete(jobs, { tenantId: caller.tenantId, bundleId: bundle.id });
      return {};
    },

    async listBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const filter = readBundleFilter(req.filter);
      const excluded = excludedBundleFields(req.excludeMask?.paths);
      const by = ORDERS[req.orderBy];
      if (by === undefined)
        throw invalid("order_by: use CREATED_AT, NAME, MODE, STATUS or PREVENTIONS_COUNT.");
      // Names read A to Z unless asked otherwise; everything else newest or largest first.
      const order = req.pagination?.order ?? Order.UNSPECIFIED;
      const descending = order === Order.UNSPECIFIED ? by !== "name" : order === Order.DESCENDING;
      const { items, total } = await listBundles(db, caller.tenantId, filter, { by, descending }, window);
      return {
        items: items.map((item) => extendedBundleMessage(item.bundle, item.counts, excluded)),
        pagination: pageResponse(total, window),
      };
    },

    async summaryBundle(req, ctx) {
      const caller = requireCaller(ctx);
      const namespace =
        req.namespace === undefined ? undefined : (parseNamespace(req.namespace) ?? undefined);
      const rows = await summariseBundles(db, caller.tenantId, namespace);
      const of = (mode: string) => rows.find((r) => r.mode === mode)?.policies ?? 0;
      return { total: of("PREVENT") + of("ALERT"), prevent: of("PREVENT"), alert: of("ALERT") };
    },

    async summaryNamespace(req, ctx) {
      const caller = requireCaller(ctx);
      const namespace = parseNamespace(req.namespace);
      if (!namespace) throw invalid("namespace: required.");
      const [policies, events, waivers] = await Promise.all([
        summariseBundles(db, caller.tenantId, namespace),
        summariseNamespaceEvents(db, caller.tenantId, namespace),
        summariseNamespaceWaivers(db, caller.tenantId, namespace),
      ]);
      const summary = (mode: string) => ({
        eventCount: events.find((e) => e.mode === mode)?.events ?? 0,
        policyCount: policies.find((p) => p.mode === mode)?.policies ?? 0,
      });
      return { prevents: summary("PREVENT"), alerts: summary("ALERT"), waivers };
    },

    async listDeployments(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const { items, total } = await listDeploymentsWithCounts(
        db,
        caller.tenantId,
        {
          scopes: strings("scopes", req.scopes),
          modes: req.modes.map((mode) => modeName(mode, "modes")),
          bundleId: req.bundleId || undefined,
        },
        window,
      );
      return {
        items: items.map((item) => extendedDeploymentMessage(item.deployment, item.counts)),
        pagination: pageResponse(total, window),
      };
    },

    async export(req, ctx) {
      const caller = requireCaller(ctx);
      const result = await exports.exportNow({
        tenantId: caller.tenantId,
        kind: "bundles",
        params: { filter: readBundleFilter(req.filter) },
        format: exportFormat(req.format),
        createdBy: caller.id,
      });
      return { presignedUrl: result.presignedUrl };
    },

    async exportAsync(req, ctx) {
      const caller = requireCaller(ctx);
      const result = await exports.exportLater({
        tenantId: caller.tenantId,
        kind: "bundles",
        params: { filter: readBundleFilter(req.filter) },
        format: exportFormat(req.format),
        createdBy: caller.id,
      });
      return { presignedUrl: result.presignedUrl, jobId: result.jobId };
    },

    async listValidDeploymentsByBundleIds(req, ctx) {
      const caller = requireCaller(ctx);
      if (req.bundleId.length > 100) throw invalid("bundle_id: at most 100 ids.");
      return { deploymentIds: await validDeploymentIds(db, caller.tenantId, req.bundleId) };
    },
  };
}

function asScope(scope: StoredScope): Scope {
  return create(ScopeSchema, { externalId: scope.externalId, connectorId: scope.connectorId });
}

/**
 * The deployment manager with its engine: registers the deploy, delete and reconcile jobs (and the
 * reconcile schedule) before the service answers.
 */
export async function startDeploymentManagerService(
  deps: Omit<DeploymentServiceDeps, "engine"> & { runtime: ConnectorRuntime; logger: Logger },
): Promise<ServiceImpl<typeof DeploymentManagerService>> {
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
