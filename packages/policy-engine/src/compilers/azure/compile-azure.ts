import type { AzureDefinition, ParameterType } from "../../catalogue/definition-schema";
import {
  type ActiveWaiver,
  activeWaivers,
  type CompileBundleInput,
  CompileError,
  renderFeedbackMessage,
} from "../compile-input";
import { type InlinedAzureNode, inlineAzureTree, resolveBundleParameters } from "../tree";

export const AZURE_EFFECTS = ["Deny", "Audit", "Disabled"] as const;
/** Assignments at management-group scope are limited to 24 characters, the tightest name limit. */
const ASSIGNMENT_NAME_MAX = 24;
const EXEMPTION_NAME_MAX = 64;
const DEFINITION_NAME_MAX = 64;
const DISPLAY_NAME_MAX = 128;
const DESCRIPTION_MAX = 512;
const NON_COMPLIANCE_MESSAGE_MAX = 1024;

export interface AzureParameterDefinition {
  type: "String" | "Array" | "Object" | "Boolean" | "Integer" | "Float";
  metadata: { displayName: string; description: string };
  defaultValue?: unknown;
  allowedValues?: unknown[];
}

/** ARM resources as returned by GET; PUT bodies are `{ properties }`. */
export interface AzurePolicyDefinitionResource {
  id: string;
  name: string;
  type: "Microsoft.Authorization/policyDefinitions";
  properties: {
    displayName: string;
    policyType: "Custom";
    mode: "All" | "Indexed";
    description: string;
    metadata: { category: string; palisade: { key: string; slug: string } };
    parameters: Record<string, AzureParameterDefinition>;
    policyRule: { if: unknown; then: { effect: string } };
  };
}

export interface AzurePolicyAssignmentResource {
  id: string;
  name: string;
  type: "Microsoft.Authorization/policyAssignments";
  properties: {
    displayName: string;
    description: string;
    policyDefinitionId: string;
    scope: string;
    notScopes: string[];
    enforcementMode: "Default";
    parameters: Record<string, { value: unknown }>;
    nonComplianceMessages: { message: string }[];
    metadata: { palisade: { key: string; slug: string; mode: "PREVENT" | "ALERT" } };
  };
}

export interface AzurePolicyExemptionResource {
  id: string;
  name: string;
  type: "Microsoft.Authorization/policyExemptions";
  properties: {
    policyAssignmentId: string;
    exemptionCategory: "Waiver";
    expiresOn: string;
    displayName: string;
    description: string;
    metadata: { palisade: { key: string; waiverId: string } };
  };
}

export interface CompiledAzureBundle {
  definition: AzurePolicyDefinitionResource;
  assignments: AzurePolicyAssignmentResource[];
  exemptions: AzurePolicyExemptionResource[];
}

const AZURE_TYPES: Record<ParameterType, AzureParameterDefinition["type"]> = {
  string: "String",
  array: "Array",
  object: "Object",
  boolean: "Boolean",
  integer: "Integer",
  float: "Float",
};

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Short stable suffix, so an assignment keeps its name while other scopes come and go. */
function scopeHash(scope: string): string {
  let hash = 0x811c9dc5;
  for (const char of scope.toLowerCase()) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, "0").slice(-6);
}

const normalizeScope = (scope: string) => scope.replace(/\/+$/, "").toLowerCase();

/** True when `child` is `parent` or lies below it in the ARM hierarchy (ids compared case-insensitively). */
export function isAtOrBelow(child: string, parent: string): boolean {
  const c = normalizeScope(child);
  const p = normalizeScope(parent);
  return c === p || c.startsWith(`${p}/`);
}

const SCOPE_PATTERN =
  /^(\/providers\/Microsoft\.Management\/managementGroups\/[^/]+|\/subscriptions\/[^/]+(\/resourceGroups\/[^/]+)?)$/i;

function checkScope(scope: string, what: string): void {
  if (!SCOPE_PATTERN.test(scope)) {
    throw new CompileError(
      "CLOUD_INVALID_SCOPE",
      `${what} ${scope} is not a management group, subscription or resource group scope`,
    );
  }
}

/** Where the definition lives: it must be at or above every assignment scope. */
function definitionScope(scopes: string[]): string {
  const subscriptions = new Set(
    scopes.map((scope) => /^\/subscriptions\/[^/]+/i.exec(scope)?.[0]?.toLowerCase()),
  );
  if (subscriptions.size === 1 && !subscriptions.has(undefined)) {
    return /^\/subscriptions\/[^/]+/i.exec(scopes[0]!)![0];
  }
  const unique = new Set(scopes.map(normalizeScope));
  if (unique.size === 1) return scopes[0]!;
  throw new CompileError(
    "CLOUD_INVALID_SCOPE",
    "The scopes are in different subscriptions or management groups, and Azure needs one place above all of them to keep the policy's definition",
  );
}

function toCondition(node: InlinedAzureNode): unknown {
  if ("atomic" in node) return node.atomic;
  const { operator, nodes } = node.junction;
  if (operator === "not") {
    if (nodes.length !== 1) throw new CompileError("INVALID_TREE", "a not junction takes exactly one node");
    return { not: toCondition(nodes[0]!) };
  }
  // A junction of one node is that node; Azure accepts it, but the rule reads better without.
  if (nodes.length === 1) return toCondition(nodes[0]!);
  return { [operator === "and" ? "allOf" : "anyOf"]: nodes.map(toCondition) };
}

/** First paragraph of the Markdown description, as plain text: Azure descriptions are short and unformatted. */
function summary(markdown: string): string {
  const paragraph =
    markdown
      .split("\n")
      .map((line) => (line.trimStart().startsWith("#") ? "" : line))
      .join("\n")
      .split(/\n\s*\n/)
      .map((block) => block.trim())
      .find((block) => block !== "") ?? markdown;
  return paragraph.replace(/`/g, "").replace(/\s+/g, " ").trim();
}

function exemptionName(key: string, waiver: ActiveWaiver, assignmentName: string, several: boolean): string {
  const id = waiver.id.replace(/[^A-Za-z0-9-]/g, "").slice(0, 36);
  const base = `palisade-${key}-${id}`;
  return truncate(several ? `${base}-${assignmentName.slice(-6)}` : base, EXEMPTION_NAME_MAX);
}

/**
 * Compiles a bundle of an azure_policy definition into a custom policy definition, one assignment
 * per scope (Deny for PREVENT, Audit for ALERT, with the feedback message carrying the key and
 * waiver link) and one exemption per active waiver and assignment it falls under.
 */
export function compileAzureBundle(input: CompileBundleInput): CompiledAzureBundle {
  if (input.definition.enforcer !== "azure_policy") {
    throw new CompileError(
      "INVALID_TREE",
      `${input.definition.slug} is enforced by ${input.definition.enforcer}, not azure_policy`,
    );
  }
  const definition = input.definition as AzureDefinition;
  const values = resolveBundleParameters(definition, input.parameters);
  if (input.scopes.length === 0)
    throw new CompileError("CLOUD_INVALID_SCOPE", "a bundle needs at least one scope");
  for (const scope of input.scopes) checkScope(scope.id, "scope");
  for (const scope of input.excludedScopes) {
    if (!/^\/(subscriptions|providers)\//i.test(scope.id)) {
      throw new CompileError("CLOUD_INVALID_SCOPE", `excluded scope ${scope.id} is not an ARM id`);
    }
  }

  const home = input.azureDefinitionScope ?? definitionScope(input.scopes.map((s) => s.id));
  const definitionName = truncate(`palisade-${input.key}-${definition.slug}`, DEFINITION_NAME_MAX);
  const definitionId = `${home}/providers/Microsoft.Authorization/policyDefinitions/${definitionName}`;

  const parameters: Record<string, AzureParameterDefinition> = {};
  for (const parameter of definition.parameter_definitions) {
    parameters[parameter.name] = {
      type: AZURE_TYPES[parameter.type],
      metadata: { displayName: parameter.display_name, description: parameter.description },
      ...(parameter.default_value !== undefined ? { defaultValue: parameter.default_value } : {}),
      // Azure checks allowedValues against the whole value, which for arrays means listing arrays;
      // items are validated by Palisade before deploying instead.
      ...(parameter.allowed_values.length > 0 && parameter.type !== "array"
        ? { allowedValues: parameter.allowed_values }
        : {}),
    };
  }
  parameters.effect = {
    type: "String",
    metadata: {
      displayName: "Effect",
      description:
        "Deny blocks non-compliant requests (PREVENT); Audit only reports them (ALERT); Disabled turns the policy off.",
    },
    allowedValues: [...AZURE_EFFECTS],
    defaultValue: "Deny",
  };

  const policyDefinition: AzurePolicyDefinitionResource = {
    id: definitionId,
    name: definitionName,
    type: "Microsoft.Authorization/policyDefinitions",
    properties: {
      displayName: truncate(`${definition.display_name} (Palisade ${input.key})`, DISPLAY_NAME_MAX),
      policyType: "Custom",
      mode: definition.provider_data.azure_policy?.mode ?? "All",
      description: truncate(summary(definition.description), DESCRIPTION_MAX),
      metadata: { category: definition.category, palisade: { key: input.key, slug: definition.slug } },
      parameters,
      policyRule: {
        if: toCondition(inlineAzureTree(definition, input.definitions)),
        // biome-ignore lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
        then: { effect: "[parameters('effect')]" },
      },
    },
  };

  const message = truncate(renderFeedbackMessage(input), NON_COMPLIANCE_MESSAGE_MAX);
  const assignmentParameters: Record<string, { value: unknown }> = {
    effect: { value: input.mode === "PREVENT" ? "Deny" : "Audit" },
  };
  for (const [name, value] of Object.entries(values)) assignmentParameters[name] = { value };

  const excluded = input.excludedScopes.map((scope) => scope.id);
  const assignments = input.scopes.map((scope): AzurePolicyAssignmentResource => {
    const name = `palisade-${input.key}-${scopeHash(scope.id)}`.slice(0, ASSIGNMENT_NAME_MAX);
    return {
      id: `${scope.id}/providers/Microsoft.Authorization/policyAssignments/${name}`,
      name,
      type: "Microsoft.Authorization/policyAssignments",
      properties: {
        displayName: truncate(`${input.name} (${input.key})`, DISPLAY_NAME_MAX),
        description: truncate(`Palisade bundle ${input.key}: ${definition.display_name}`, DESCRIPTION_MAX),
        policyDefinitionId: definitionId,
        scope: scope.id,
        notScopes: excluded.filter(
          (id) => isAtOrBelow(id, scope.id) && normalizeScope(id) !== normalizeScope(scope.id),
        ),
        enforcementMode: "Default",
        parameters: assignmentParameters,
        nonComplianceMessages: [{ message }],
        metadata: { palisade: { key: input.key, slug: definition.slug, mode: input.mode } },
      },
    };
  });

  const exemptions: AzurePolicyExemptionResource[] = [];
  for (const waiver of activeWaivers(input.waivers, input.now)) {
    const target = waiver.resource ?? waiver.scope;
    if (
      !target ||
      waiver.principalArn !== undefined ||
      waiver.accountId !== undefined ||
      (waiver.resource && waiver.scope)
    ) {
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `waiver ${waiver.id} must name exactly one Azure scope or resource id`,
      );
    }
    if (!/^\/(subscriptions|providers)\//i.test(target)) {
      throw new CompileError("PARSE_WAIVER_SCOPE_FAILED", `waiver ${waiver.id}: ${target} is not an ARM id`);
    }
    // An exemption must sit at or below its assignment; a waiver above the assignment exempts the
    // whole assignment scope.
    const within = waiver.withinScope;
    const covered = assignments.flatMap((assignment) => {
      const scope = assignment.properties.scope;
      if (isAtOrBelow(target, scope) || (within && isAtOrBelow(within, scope)))
        return [{ assignment, at: target }];
      if (isAtOrBelow(scope, target)) return [{ assignment, at: scope }];
      return [];
    });
    if (covered.length === 0) {
      throw new CompileError(
        "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE",
        `waiver ${waiver.id}: ${target} is not inside any scope of bundle ${input.key}`,
      );
    }
    for (const { assignment, at } of covered) {
      const name = exemptionName(input.key, waiver, assignment.name, covered.length > 1);
      exemptions.push({
        id: `${at}/providers/Microsoft.Authorization/policyExemptions/${name}`,
        name,
        type: "Microsoft.Authorization/policyExemptions",
        properties: {
          policyAssignmentId: assignment.id,
          exemptionCategory: "Waiver",
          expiresOn: waiver.expiresAt.toISOString(),
          displayName: truncate(`Palisade waiver ${input.key} (${waiver.id})`, DISPLAY_NAME_MAX),
          description: truncate(
            `Time-limited waiver of ${definition.display_name} until ${waiver.expiresAt.toISOString()}`,
            DESCRIPTION_MAX,
          ),
          metadata: { palisade: { key: input.key, waiverId: waiver.id } },
        },
      });
    }
  }

  return { definition: policyDefinition, assignments, exemptions };
}
