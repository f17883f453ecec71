import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { compileRcp } from "@palisade/policy-engine/compilers/aws/compile-rcp";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { evaluatePolicySet } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { evaluatedPrincipalArn } from "@palisade/policy-engine/principals/principal-arn";
import type { Database } from "../../db/database";
import { loadTenantCatalogue } from "../policy-definition/policy-definition-api";
import { findBundlesByNativeIdAnyTenant } from "./policy-repository";

/** Guardrails sharing one packed SCP that are tried against a message. */
const MAX_CANDIDATES = 60;

const DENIED_REQUEST = /User: (arn:\S+) is not authorized to perform: ([\w-]+:[\w*]+) on resource: (\S+)/;

/**
 * The key of the guardrail a pasted AWS deny message is about. The message names the SCP or RCP
 * ("... with an explicit deny in a resource control policy: <arn>"), and a packed policy holds
 * several guardrails: the one whose own statements deny the request the message
 * describes (principal, action, resource) is the one; otherwise the oldest.
 */
export async function keyOfDeniedRequest(
  deps: { db: Database; catalogue: Catalogue },
  text: string,
  scpIds: readonly string[],
): Promise<string | undefined> {
  const candidates = await findBundlesByNativeIdAnyTenant(deps.db, scpIds, MAX_CANDIDATES);
  const keys = [...new Set(candidates.map((c) => c.key))];
  if (keys.length <= 1) return keys[0];
  const match = DENIED_REQUEST.exec(text);
  if (!match) return keys[0];
  const [, caller, action, resource] = match as unknown as [string, string, string, string];
  // A deny message names the session; the SCP saw its role (aws:PrincipalArn).
  const principalArn = evaluatedPrincipalArn(caller);
  const views = new Map<string, Awaited<ReturnType<typeof loadTenantCatalogue>>>();
  for (const candidate of candidates) {
    const view =
      views.get(candidate.tenantId) ??
      (await loadTenantCatalogue(deps.db, deps.catalogue, candidate.tenantId));
    views.set(candidate.tenantId, view);
    const definition = view.bySlug.get(candidate.policySlug)?.definition;
    const enforcer = definition?.enforcer;
    if (!definition || (enforcer !== "aws_scp" && enforcer !== "aws_rcp")) continue;
    try {
      const compiled = (enforcer === "aws_rcp" ? compileRcp : compileScp)({
        definition,
        definitions: new Map(view.definitions.map((e) => [e.definition.slug, e.definition])),
        parameters: candidate.parameters as Record<string, unknown>,
        mode: "PREVENT",
        key: candidate.key,
        name: candidate.name,
        scopes: [],
        excludedScopes: (candidate.excludedScopes as { externalId: string }[]).map((s) => ({
          id: s.externalId,
        })),
        waivers: [],
        waiverLinkBaseUrl: "",
        now: new Date(),
        // Only the statements are read here; whether they fit is the connector's quota, checked on deploy.
        scpMaxCharacters: Number.MAX_SAFE_INTEGER,
      });
      const account = /::(\d{12}):/.exec(principalArn)?.[1] ?? "";
      const decision = evaluatePolicySet(
        {
          action,
          resource,
          principalArn,
          context: {
            "aws:PrincipalArn": principalArn,
            "aws:PrincipalAccount": account,
            "aws:CurrentTime": new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
          },
        },
        [{ id: "candidate", arn: "", name: compiled.name, document: compiled.content }],
      );
      if (decision.decision === "explicit_deny") return candidate.key;
    } catch {
      // A bundle that no longer compiles cannot be the one that denied.
    }
  }
  return keys[0];
}
