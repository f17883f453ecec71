import { compileDeclarative } from "@palisade/policy-engine/compilers/aws/compile-declarative";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import {
  type CompiledAzureBundle,
  compileAzureBundle,
} from "@palisade/policy-engine/compilers/azure/compile-azure";
import { CompileError } from "@palisade/policy-engine/compilers/compile-input";
import type { CloudProvider } from "../../cloud/cloud-provider";
import { waiversOfBundle } from "../waiver/waiver-api";
import { type ApplyContext, failDeployments, type RunOptions, rethrowTransient } from "./bundle-apply";
import { awsPolicyTypeOf, baseInput, exemptionIds, toActiveWaiver } from "./bundle-compile";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { cloudFailure } from "./cloud-failure";
import { DECLARATIVE_EC2 } from "./declarative-apply";
import { findDeploymentsOfBundle } from "./deployment-repository";
import { definitionsOf, type EngineDeps, finishBundle, providerOf } from "./engine-context";
import { repackTarget } from "./scp-repack";
import { updateDeployments } from "./sync-state-repository";

/** Removes a deleted bundle from the cloud: its SCP, or its exemptions, assignments and definition. */
export async function removeBundleNow(
  deps: EngineDeps,
  bundle: BundleRow,
  options: RunOptions,
): Promise<void> {
  const { db } = deps;
  const run: ApplyContext = { db, logger: deps.logger, tenantId: bundle.tenantId, options };
  const all = await findDeploymentsOfBundle(db, bundle.tenantId, bundle.id);
  const remaining = all.filter((d) => d.status !== "DELETED");
  if (remaining.length === 0) return finishBundle(db, bundle);
  let provider: CloudProvider;
  try {
    provider = await providerOf(deps, bundle, all);
  } catch (error) {
    rethrowTransient(error, options);
    // Without a connector there is nothing Palisade can reach any more.
    await updateDeployments(
      db,
      bundle.tenantId,
      remaining.map((d) => d.id),
      { status: "DELETED" },
    );
    return finishBundle(db, bundle);
  }
  const { definition, all: definitions } = await definitionsOf(deps, bundle);
  const input = definition
    ? baseInput(
        bundle,
        definition,
        definitions,
        all.map((d) => d.scope as StoredScope),
        deps.publicUrl,
      )
    : undefined;
  try {
    if (provider.provider === "aws" && definition?.enforcer === "aws_declarative_ec2") {
      // A declarative guardrail is its own policy: detached everywhere and deleted.
      let name: string | undefined;
      try {
        name = input ? compileDeclarative({ ...input, waivers: [] }).name : undefined;
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
      }
      const found = name ? await provider.findScpByName(name, DECLARATIVE_EC2) : undefined;
      if (found) await provider.removeScp(found.id);
    } else if (provider.provider === "aws") {
      // The guardrail leaves the packed SCPs (or RCPs) of every target it was on. A definition
      // removed from the catalogue is taken to have been an SCP.
      const policyType = (definition && awsPolicyTypeOf(definition)) ?? "SERVICE_CONTROL_POLICY";
      const targets = new Map<string, string>();
      for (const d of remaining) if (d.connectorId) targets.set(d.scopeExternalId, d.connectorId);
      for (const [target, connectorId] of targets) {
        await repackTarget(
          { db, logger: deps.logger, provider, tenantId: bundle.tenantId, connectorId, target },
          { key: bundle.key, slug: bundle.policySlug, content: undefined, policyType },
        );
      }
      // A bundle deployed before packing may still have an SCP of its own.
      if (input && policyType === "SERVICE_CONTROL_POLICY") {
        try {
          const found = await provider.findScpByName(
            compileScp({ ...input, waivers: [], scpMaxCharacters: Number.MAX_SAFE_INTEGER }).name,
          );
          if (found) await provider.removeScp(found.id);
        } catch (error) {
          if (!(error instanceof CompileError)) throw error;
        }
      }
    } else {
      const byId = new Map(all.map((d) => [d.id, d]));
      let compiled: CompiledAzureBundle | undefined;
      if (input) {
        for (const waiver of await waiversOfBundle(db, bundle.tenantId, bundle.id)) {
          for (const id of exemptionIds(input, toActiveWaiver(waiver, byId.get(waiver.deploymentId))))
            await provider.removeExemption(id);
        }
        try {
          compiled = compileAzureBundle({ ...input, waivers: [] });
        } catch (error) {
          if (!(error instanceof CompileError)) throw error;
        }
      }
      const assignments = new Set([
        ...all.map((d) => d.nativeId).filter((id): id is string => Boolean(id)),
        ...(compiled?.assignments.map((a) => a.id) ?? []),
      ]);
      for (const id of assignments) await provider.removeAssignment(id);
      if (compiled) await provider.removeDefinition(compiled.definition.id);
    }
  } catch (error) {
    rethrowTransient(error, options);
    await failDeployments(run, remaining, cloudFailure(error, "delete"));
    return finishBundle(db, bundle);
  }
  await updateDeployments(
    db,
    bundle.tenantId,
    remaining.map((d) => d.id),
    { status: "DELETED", errorCode: null, errorMessage: null },
  );
  await finishBundle(db, bundle);
}
