import { Code } from "@connectrpc/connect";
import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition, PackedPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { packScps, type ScpLimits } from "@palisade/policy-engine/compilers/aws/pack-scps";
import { type ActiveWaiver, CompileError } from "@palisade/policy-engine/compilers/compile-input";
import type { Database } from "../../db/database";
import { callError } from "../../rpc/errors";
import { policyQuotasFor } from "../connector/connector-api";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import { describeTarget, isEnforceable, type WaiverFitCheck, waiversOfBundle } from "../waiver/waiver-api";
import { awsPolicyTypeOf, baseInput, compile, compileWithWaivers, toActiveWaiver } from "./bundle-compile";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { type DeploymentRow, findDeploymentsOfBundle } from "./deployment-repository";
import { listGuardrailsOnTarget } from "./scp-target-repository";

/**
 * AWS requires every root, OU and account to have at least one SCP attached (FullAWSAccess unless
 * replaced), so at least one of the SCPs per target is never Palisade's
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps_attach.html).
 * Likewise RCPFullAWSAccess, attached everywhere once RCPs are enabled, cannot be detached
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html).
 */
const FOREIGN_SCPS = 1;
/** The part of a guardrail's waiver space, in characters of its SCP, one requester may hold. */
export const REQUESTER_SHARE = 0.5;

const live = (d: DeploymentRow) => d.status !== "DELETED" && d.status !== "DELETING";
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

interface Guardrail {
  bundle: BundleRow;
  deployments: DeploymentRow[];
  /** Its enforceable waivers as the compiler takes them, with who holds each. */
  waivers: (ActiveWaiver & { requester: string })[];
}

async function loadGuardrail(db: Database, bundle: BundleRow, now: Date): Promise<Guardrail> {
  const deployments = (await findDeploymentsOfBundle(db, bundle.tenantId, bundle.id)).filter(live);
  const byId = new Map(deployments.map((d) => [d.id, d]));
  const waivers = (await waiversOfBundle(db, bundle.tenantId, bundle.id))
    .filter((w) => isEnforceable(w, now))
    .map((w) => ({ ...toActiveWaiver(w, byId.get(w.deploymentId)), requester: w.requesterIdentifier }));
  return { bundle, deployments, waivers };
}

/**
 * Before a waiver is acknowledged (stored as ACTIVE, or approved), checks that the bundle's SCP with
 * it still fits the quotas of every target it is deployed to, packed with the other guardrails
 * there as the sync will pack them, and that its requester does not hold more than their share of
 * the guardrail's waiver space. Refuses with the reason and what to do; the caller stores nothing.
 * Runs under the bundle's waiver lock, so two requests on one bundle are checked one after another.
 */
export function createWaiverFitCheck(deps: { catalogue: Catalogue; publicUrl: string }): WaiverFitCheck {
  return async (db, bundle, proposed, options) => {
    if (bundle.provider !== "aws" || proposed.length === 0) return;
    const now = new Date();
    const view = await loadTenantCatalogue(db, deps.catalogue, bundle.tenantId);
    const all = new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition]));
    const definition = all.get(bundle.policySlug);
    // Without its definition the bundle cannot be compiled at all; the sync reports that.
    if (!definition) return;
    // A declarative waiver changes where the policy is attached, not its size; it must name an account.
    if (definition.enforcer === "aws_declarative_ec2") return requireWholeAccounts(bundle, proposed);
    const policyType = awsPolicyTypeOf(definition);
    if (!policyType) return;
    const guardrail = await loadGuardrail(db, bundle, now);
    const byId = new Map(guardrail.deployments.map((d) => [d.id, d]));
    const added = proposed.map((p, index) => ({
      ...toActiveWaiver({ ...p, id: `proposed-${index}`, policyKey: bundle.key }, byId.get(p.deploymentId)),
      requester: p.requesterIdentifier,
    }));
    const waivers = [...guardrail.waivers, ...added];
    const connectorId = guardrail.deployments.find((d) => d.connectorId)?.connectorId ?? null;
    const quotas = await policyQuotasFor(db, bundle.tenantId, connectorId, policyType);
    const compileFor = (list: ActiveWaiver[]) => {
      const compiled = compile({
        ...baseInput(bundle, definition, all, scopesOf(guardrail), deps.publicUrl),
        waivers: list,
        scpMaxCharacters: Number.MAX_SAFE_INTEGER,
        rcpMaxCharacters: Number.MAX_SAFE_INTEGER,
      });
      return compiled.provider === "aws" ? compiled.scp.content : "";
    };

    let content: string;
    try {
      content = compileFor(waivers);
    } catch (error) {
      // A waiver the compiler cannot express fails alone at the sync, which names why.
      if (error instanceof CompileError) return;
      throw error;
    }
    const first = byId.get(proposed[0]!.deploymentId);
    const where = first ? describeTarget({ kind: "scope", externalId: first.scopeExternalId }) : bundle.key;
    const until = nextWindowEnd(guardrail.waivers, now);
    if (content.length > quotas.characters) throw noRoom(bundle, where, until, quotas, policyType);
    if (bundle.mode === "PREVENT") {
      for (const deployment of guardrail.deployments) {
        if (!deployment.connectorId) continue;
        const others = await otherContents(db, deps.publicUrl, bundle, deployment, all, now, policyType);
        const packed = packScps({
          target: deployment.scopeExternalId,
          guardrails: [...others, { key: bundle.key, slug: bundle.policySlug, content }],
          limits: await policyQuotasFor(db, bundle.tenantId, deployment.connectorId, policyType),
          foreign: FOREIGN_SCPS,
          policyType,
        });
        if (packed.unplaced.some((u) => u.key === bundle.key)) {
          const target = describeTarget({ kind: "scope", externalId: deployment.scopeExternalId });
          throw noRoom(bundle, target, until, quotas, policyType);
        }
      }
    }
    if (options.share)
      refuseOverShare(
        bundle,
        proposed[0]!.requesterIdentifier,
        waivers,
        compileFor([]).length,
        quotas,
        content,
        policyType,
      );
  };
}

function scopesOf(guardrail: Guardrail): StoredScope[] {
  return guardrail.deployments.map((d) => d.scope as StoredScope);
}

/** The other PREVENT guardrails of the same policy type on a target, compiled as the sync compiles them. */
async function otherContents(
  db: Database,
  publicUrl: string,
  bundle: BundleRow,
  deployment: DeploymentRow,
  all: Map<string, Definition>,
  now: Date,
  policyType: PackedPolicyType,
) {
  const onTarget = await listGuardrailsOnTarget(
    db,
    bundle.tenantId,
    deployment.connectorId!,
    deployment.scopeExternalId,
  );
  const contents: { key: string; slug: string; content: string }[] = [];
  const quotas = await policyQuotasFor(db, bundle.tenantId, deployment.connectorId, "SERVICE_CONTROL_POLICY");
  for (const { bundle: other } of onTarget) {
    if (other.id === bundle.id || contents.some((c) => c.key === other.key)) continue;
    const definition = all.get(other.policySlug);
    if (!definition) continue;
    const loaded = await loadGuardrail(db, other, now);
    const input = {
      ...baseInput(other, definition, all, scopesOf(loaded), publicUrl),
      scpMaxCharacters: quotas.characters,
    };
    try {
      const { compiled } = compileWithWaivers(input, loaded.waivers);
      if (compiled.provider === "aws" && compiled.policyType === policyType)
        contents.push({ key: other.key, slug: other.policySlug, content: compiled.scp.content });
    } catch {
      // A guardrail that does not compile is not in force there and takes no room.
    }
  }
  return contents;
}

/** When the earliest window of the bundle's waivers closes, freeing its statements. */
function nextWindowEnd(waivers: ActiveWaiver[], now: Date): Date | undefined {
  const ends = waivers.map((w) => w.expiresAt.getTime()).filter((t) => t > now.getTime());
  return ends.length > 0 ? new Date(Math.min(...ends)) : undefined;
}

/**
 * A declarative policy has no conditions, so its waiver can only leave a whole account out of the
 * policy's targets: a waiver for every scope, an OU, a principal or a resource is refused.
 */
function requireWholeAccounts(bundle: BundleRow, proposed: { scope: string | null }[]): void {
  if (proposed.every((p) => /^\d{12}$/.test(p.scope ?? ""))) return;
  throw callError(
    Code.InvalidArgument,
    `Policy ${bundle.key} (${bundle.policySlug}) is enforced by EC2 itself through a declarative policy, ` +
      "which has no conditions: a waiver exempts one whole account until it expires. Choose the account.",
    { product: ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE },
  );
}

const policyName = (type: PackedPolicyType) =>
  type === "RESOURCE_CONTROL_POLICY" ? "resource control policy" : "service control policy";

function noRoom(
  bundle: BundleRow,
  where: string,
  until: Date | undefined,
  quotas: ScpLimits,
  policyType: PackedPolicyType,
) {
  const when = until ? ` until ${iso(until)} at the earliest, when the first of its waivers ends` : "";
  return callError(
    Code.FailedPrecondition,
    `Policy ${bundle.key} (${bundle.policySlug}) has no room for another waiver on ${where}${when}: its ` +
      `${policyName(policyType)} would not fit the ${quotas.characters} characters and ${quotas.perTarget} ` +
      "policies per target AWS Organizations allows. Ask an administrator of this tenant to cancel " +
      "waivers of this policy that are no longer needed, or to raise the connector's SCP quotas if AWS " +
      "raised them for the organisation.",
    {
      product: ProductErrorCode.POLICY_LIMIT_EXCEEDED,
      productMessage: `No room for another waiver of ${bundle.key} in its ${policyName(policyType)}.`,
    },
  );
}

/**
 * One requester may hold at most `REQUESTER_SHARE` of the characters the guardrail's SCP has left
 * for waivers, so nobody fills a policy's waivers alone. The characters its waivers take are shared
 * among them in proportion (waivers in one window share its statements); a requester's first
 * waiver is always allowed.
 */
function refuseOverShare(
  bundle: BundleRow,
  requester: string,
  waivers: (ActiveWaiver & { requester: string })[],
  baseLength: number,
  quotas: ScpLimits,
  content: string,
  policyType: PackedPolicyType,
): void {
  const held = waivers.filter((w) => w.requester === requester && !w.id.startsWith("proposed-"));
  if (held.length === 0) return;
  const theirs = waivers.filter((w) => w.requester === requester).length;
  const space = quotas.characters - baseLength;
  const used = ((content.length - baseLength) * theirs) / waivers.length;
  if (used <= space * REQUESTER_SHARE) return;
  const percent = Math.round(REQUESTER_SHARE * 100);
  throw callError(
    Code.FailedPrecondition,
    `You already hold ${held.length} waivers of policy ${bundle.key}, and another would give you more than ` +
      `${percent}% of the room its ${policyName(policyType)} has for waivers, which others need too. Cancel a ` +
      "waiver you no longer need, or ask an administrator of this tenant to grant this one.",
    {
      product: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
      productMessage: `One requester may hold at most ${percent}% of a policy's waiver space.`,
    },
  );
}
