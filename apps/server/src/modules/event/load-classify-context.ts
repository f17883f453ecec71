import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { compileRcp } from "@palisade/policy-engine/compilers/aws/compile-rcp";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type { Database } from "../../db/database";
import type { Logger } from "../../logger";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import type { ClassifyContext, DeploymentInfo, WaiverInfo } from "./classify-context";
import {
  type FetchedConnector,
  listClassifiedDeployments,
  listConnectorHierarchy,
  listWaiversInForce,
} from "./fetch-repository";

type StoredScope = { externalId: string };

/**
 * What a connector's records are classified against: the tenant's live deployments on that
 * connector (for AWS, with each bundle's SCP compiled so alerts can be evaluated), the waivers
 * that were in force, and the connector's hierarchy for "at or below a scope".
 */
export async function loadClassifyContext(
  deps: { db: Database; catalogue: Catalogue; logger: Logger },
  connector: FetchedConnector,
  provider: "aws" | "azure",
): Promise<ClassifyContext> {
  const { db, logger } = deps;
  const tenantId = connector.tenantId;
  const rows = await listClassifiedDeployments(db, tenantId, connector.id);
  const catalogue = rows.length > 0 ? await loadTenantCatalogue(db, deps.catalogue, tenantId) : undefined;
  const all = new Map<string, Definition>(
    (catalogue?.definitions ?? []).map((entry) => [entry.definition.slug, entry.definition]),
  );
  const scpByBundle = new Map<string, DeploymentInfo["scp"]>();
  const infos: DeploymentInfo[] = [];
  for (const row of rows) {
    const definition = all.get(row.policySlug);
    const enforcer = definition?.enforcer;
    const aws = enforcer === "aws_scp" || enforcer === "aws_rcp";
    if ((provider === "aws") !== aws) continue;
    if (provider === "aws" && definition && !scpByBundle.has(row.bundleId)) {
      try {
        // Resource control policies are evaluated like SCPs: Deny statements on the request.
        const compileAws = enforcer === "aws_rcp" ? compileRcp : compileScp;
        const compiled = compileAws({
          definition,
          definitions: all,
          parameters: row.parameters as Record<string, unknown>,
          mode: row.mode as "PREVENT" | "ALERT",
          key: row.key,
          name: row.name,
          scopes: (row.scopes as StoredScope[]).map((s) => ({ id: s.externalId })),
          excludedScopes: (row.excludedScopes as StoredScope[]).map((s) => ({ id: s.externalId })),
          waivers: [],
          waiverLinkBaseUrl: "",
          now: new Date(),
          // Only the statements are read here; whether they fit is the connector's quota, checked on deploy.
          scpMaxCharacters: Number.MAX_SAFE_INTEGER,
        });
        scpByBundle.set(row.bundleId, {
          id: row.nativeId ?? row.bundleId,
          arn: "",
          name: compiled.name,
          document: compiled.content,
        });
      } catch (error) {
        logger.warn(
          { bundleId: row.bundleId, err: (error as Error).message },
          "bundle does not compile; its alerts are not evaluated",
        );
        scpByBundle.set(row.bundleId, undefined);
      }
    }
    infos.push({
      id: row.id,
      bundleId: row.bundleId,
      key: row.key,
      name: row.name,
      namespace: row.namespace,
      mode: row.mode === "ALERT" ? "ALERT" : "PREVENT",
      nativeId: row.nativeId,
      scopeExternalId: row.scopeExternalId,
      excludedScopes: (row.excludedScopes as StoredScope[]).map((s) => s.externalId),
      affectedResourceTypes: row.affectedResourceTypes,
      scp: scpByBundle.get(row.bundleId),
    });
  }
  const waiverRows = await listWaiversInForce(
    db,
    tenantId,
    infos.map((d) => d.id),
  );
  const waiverInfos: WaiverInfo[] = waiverRows
    .filter((w) => w.expiresAt)
    .map((w) => {
      const expires = w.expiresAt as Date;
      const cancelledAt = w.status === "CANCELLED" ? (w.cancelledAt ?? w.updatedAt) : undefined;
      const ended = cancelledAt && cancelledAt < expires ? cancelledAt : expires;
      return {
        deploymentId: w.deploymentId,
        from: w.reviewedAt ?? w.createdAt,
        until: ended,
        scope: w.scope,
        resource: w.resource,
        principalArn: w.principalArn ?? null,
      };
    });
  const nodes = await listConnectorHierarchy(db, tenantId, connector.id);
  // Keyed without case: Azure's APIs spell the same id in different cases.
  const parentOf = new Map(nodes.map((n) => [n.externalId.toLowerCase(), n.parent]));
  const ancestorsOf = (scopeId: string) => {
    const chain: string[] = [];
    const visited = new Set<string>();
    let current: string | null | undefined = scopeId;
    while (current && chain.length < 32 && !visited.has(current.toLowerCase())) {
      chain.push(current);
      visited.add(current.toLowerCase());
      current = parentOf.get(current.toLowerCase());
    }
    return chain;
  };
  return {
    tenantId,
    provider,
    deployments: infos,
    waivers: waiverInfos,
    ancestorsOf,
    consoleLinks: connector.kind !== "sandbox",
    managementAccountId: (connector.config as { managementAccountId?: string }).managementAccountId,
  };
}
