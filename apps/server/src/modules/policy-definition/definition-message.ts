import { create, fromJson, type JsonValue, type MessageInitShape, toJson } from "@bufbuild/protobuf";
import { timestampFromDate, type Value, ValueSchema } from "@bufbuild/protobuf/wkt";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  Category,
  Enforcer,
  type Framework,
  type Notice,
  NoticeType,
  Operator,
  ParameterType,
  type PolicyDefinition,
  PolicyDefinitionSchema,
  PolicyDefinitionState,
  type PolicyTreeNode,
  type PolicyTreeNodeSchema,
  type ProviderData,
  Score,
  TargetType,
  type Url,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type {
  ParameterDefinition as CatalogueParameter,
  Definition,
  Enforcer as EnforcerName,
  TreeNode,
} from "@palisade/policy-engine/catalogue/definition-schema";
import { treeOf } from "@palisade/policy-engine/catalogue/definition-tree";
import { invalidField } from "../../rpc/errors";
import type { TenantDefinitionRow } from "./policy-definition-repository";
import { safeReadingUrls } from "./reading-url";
import type { TenantCatalogue, TenantDefinition } from "./tenant-catalogue";

type EnumObject = Record<string, string | number>;
type DefinitionInit = MessageInitShape<typeof PolicyDefinitionSchema>;
type TreeInit = MessageInitShape<typeof PolicyTreeNodeSchema>;

/** `network_access` -> Category.NETWORK_ACCESS; unknown names give UNSPECIFIED (0). */
function enumValue(enumObject: EnumObject, name: string): number {
  const value = enumObject[name.toUpperCase()];
  return typeof value === "number" ? value : 0;
}

/** Category.NETWORK_ACCESS -> `network_access`; UNSPECIFIED and unknown values give undefined. */
export function enumName(enumObject: EnumObject, value: number | undefined): string | undefined {
  const name = value === undefined || value === 0 ? undefined : enumObject[value];
  return typeof name === "string" ? name.toLowerCase() : undefined;
}

export function enforcerOfProvider(provider: CloudProvider): EnforcerName | undefined {
  if (provider === CloudProvider.AWS) return "aws_scp";
  if (provider === CloudProvider.AZURE) return "azure_policy";
  return undefined;
}

export function providerOfEnforcer(enforcer: EnforcerName): CloudProvider {
  return enforcer === "azure_policy" ? CloudProvider.AZURE : CloudProvider.AWS;
}

/** Field names of PolicyDefinition as the contract spells them (`provider_data`). */
const DEFINITION_FIELDS: ReadonlySet<string> = new Set(
  PolicyDefinitionSchema.fields.map((field) => field.name),
);

/** What lists of policies leave out of each definition, as their contract says: the two largest fields. */
export const SUMMARY_EXCLUDED: ReadonlySet<string> = new Set(["tree", "provider_data"]);

/**
 * Reads an exclude_mask: top-level PolicyDefinition field names, snake_case as in the contract or
 * lowerCamelCase as JSON clients write them.
 */
export function excludedFields(paths: readonly string[] | undefined): ReadonlySet<string> {
  const excluded = new Set<string>();
  for (const path of paths ?? []) {
    const name = path.trim().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (!DEFINITION_FIELDS.has(name)) {
      throw invalidField(
        "exclude_mask",
        `"${path.slice(0, 64)}" is not a field of PolicyDefinition (for example description, tree, provider_data).`,
      );
    }
    excluded.add(name);
  }
  return excluded;
}

function jsonValue(value: unknown): Value {
  return fromJson(ValueSchema, value as JsonValue);
}

function parameterInit(parameter: CatalogueParameter) {
  return {
    name: parameter.name,
    displayName: parameter.display_name,
    description: parameter.description,
    type: enumValue(ParameterType, parameter.type),
    defaultValue: parameter.default_value === undefined ? undefined : jsonValue(parameter.default_value),
    allowedValues: parameter.allowed_values.map(jsonValue),
    targetType:
      parameter.target_type === undefined ? undefined : enumValue(TargetType, parameter.target_type),
  };
}

function treeInit(node: TreeNode): TreeInit {
  if ("atomic" in node) return { node: { case: "atomic", value: jsonValue(node.atomic) } };
  if ("policy_reference" in node) return { node: { case: "policyReference", value: node.policy_reference } };
  return {
    node: {
      case: "junction",
      value: {
        operator: enumValue(Operator, node.junction.operator),
        nodes: node.junction.nodes.map(treeInit),
      },
    },
  };
}

function providerDataInit(definition: Definition): DefinitionInit["providerData"] {
  if (definition.enforcer === "azure_policy") {
    // Without provider data the compiler uses mode All (docs/catalogue.md).
    return {
      provider: { case: "azure", value: { mode: definition.provider_data.azure_policy?.mode ?? "All" } },
    };
  }
  const aws = definition.provider_data.aws_scp;
  if (aws?.cloud_control) {
    return {
      provider: {
        case: "aws",
        value: { source: { case: "cloudControl", value: { policies: aws.cloud_control } } },
      },
    };
  }
  if (aws?.steampipe) {
    return {
      provider: { case: "aws", value: { source: { case: "steampipe", value: { queries: aws.steampipe } } } },
    };
  }
  return undefined;
}

export interface DefinitionExtras {
  state: PolicyDefinitionState;
  /** Absent for catalogue definitions, which have no creation time of their own. */
  createdAt?: Date;
}

/** The contract's PolicyDefinition for a catalogue-format definition, leaving out excluded fields. */
export function definitionMessage(
  definition: Definition,
  extras: DefinitionExtras,
  excluded: ReadonlySet<string> = new Set(),
): PolicyDefinition {
  const all: Record<string, () => unknown> = {
    slug: () => definition.slug,
    display_name: () => definition.display_name,
    description: () => definition.description,
    feedback_message_template: () => definition.feedback_message_template,
    enforcer: () => enumValue(Enforcer, definition.enforcer),
    supported_provider: () => providerOfEnforcer(definition.enforcer),
    parameter_definitions: () => definition.parameter_definitions.map(parameterInit),
    // A declarative definition's ec2_attributes template travels as the tree's one atomic node.
    tree: () => treeInit(treeOf(definition)),
    provider_data: () => providerDataInit(definition),
    affected_resource_types: () => definition.affected_resource_types,
    main_resource_type: () => definition.main_resource_type,
    warnings: () => definition.warnings,
    notices: () =>
      definition.notices.map((notice) => ({
        noticeType: enumValue(NoticeType, notice.notice_type),
        noticeContent: notice.notice_content,
      })),
    frameworks: () =>
      definition.frameworks.map((framework) => ({
        name: framework.name,
        section: framework.section,
        subsection: framework.subsection ?? "",
      })),
    further_reading_urls: () => safeReadingUrls(definition.further_reading_urls),
    is_visible: () => definition.is_visible,
    is_preventable: () => definition.is_preventable,
    category: () => enumValue(Category, definition.category),
    security_score: () => enumValue(Score, definition.security_score),
    seamless_score: () => enumValue(Score, definition.seamless_score),
    initiative_slugs: () => definition.initiative_slugs,
    state: () => extras.state,
    created_at: () => (extras.createdAt ? timestampFromDate(extras.createdAt) : undefined),
  };
  const init: Record<string, unknown> = {};
  for (const field of PolicyDefinitionSchema.fields) {
    if (!excluded.has(field.name)) init[field.localName] = all[field.name]?.();
  }
  return create(PolicyDefinitionSchema, init as DefinitionInit);
}

/** A client may send a Value without a kind (or a NaN number), which JSON cannot hold. */
function valueJson(value: Value, field: string): unknown {
  try {
    return toJson(ValueSchema, value);
  } catch {
    throw invalidField(`policy_definition.${field}`, "expected a JSON value");
  }
}

/** A declarative definition's template comes back from its tree's atomic node (see definitionMessage). */
function treeFields(enforcer: unknown, tree: unknown): Record<string, unknown> {
  if (enforcer !== "aws_declarative_ec2") return { tree };
  const atomic = (tree as { atomic?: { ec2_attributes?: unknown } } | undefined)?.atomic;
  return { ec2_attributes: atomic?.ec2_attributes ?? atomic };
}

function treeDocument(node: PolicyTreeNode | undefined, path: string): unknown {
  switch (node?.node.case) {
    case "atomic":
      return { atomic: valueJson(node.node.value, `${path}.atomic`) };
    case "policyReference":
      return { policy_reference: node.node.value };
    case "junction":
      return {
        junction: {
          operator: enumName(Operator, node.node.value.operator),
          nodes: node.node.value.nodes.map((child, index) =>
            treeDocument(child, `${path}.junction.nodes[${index}]`),
          ),
        },
      };
    default:
      // An empty node is reported by the schema check at its own path.
      return node ? {} : undefined;
  }
}

function providerDataDocument(data: ProviderData | undefined): unknown {
  switch (data?.provider.case) {
    case "azure": {
      const { mode, metadata } = data.provider.value;
      // The catalogue format has no metadata; passing it on lets the check name it as unknown.
      return { azure_policy: { mode: mode || undefined, ...(metadata ? { metadata } : {}) } };
    }
    case "aws": {
      const source = data.provider.value.source;
      if (source.case === "cloudControl") return { aws_scp: { cloud_control: source.value.policies } };
      if (source.case === "steampipe") return { aws_scp: { steampipe: source.value.queries } };
      return { aws_scp: {} };
    }
    default:
      return undefined;
  }
}

export function noticeDocument(notice: Notice) {
  return { notice_type: enumName(NoticeType, notice.noticeType), notice_content: notice.noticeContent };
}

export function frameworkDocument(framework: Framework) {
  return { name: framework.name, section: framework.section, subsection: framework.subsection || undefined };
}

export function urlDocument(url: Url) {
  return { name: url.name, href: url.href };
}

/**
 * The catalogue-format document (snake_case, as in the YAML files) for a PolicyDefinition sent by a
 * client, to be checked with the catalogue's own rules. state, created_at and the deprecated
 * supported_provider are not part of a definition. Unset enums and empty optional texts become
 * absent so the check reports them as missing.
 */
export function definitionDocument(message: PolicyDefinition): Record<string, unknown> {
  return {
    slug: message.slug,
    display_name: message.displayName,
    description: message.description,
    feedback_message_template: message.feedbackMessageTemplate,
    enforcer: enumName(Enforcer, message.enforcer),
    parameter_definitions: message.parameterDefinitions.map((parameter, index) => ({
      name: parameter.name,
      display_name: parameter.displayName,
      description: parameter.description,
      type: enumName(ParameterType, parameter.type),
      default_value: parameter.defaultValue
        ? valueJson(parameter.defaultValue, `parameter_definitions[${index}].default_value`)
        : undefined,
      allowed_values: parameter.allowedValues.map((value, valueIndex) =>
        valueJson(value, `parameter_definitions[${index}].allowed_values[${valueIndex}]`),
      ),
      target_type: enumName(TargetType, parameter.targetType),
    })),
    ...treeFields(enumName(Enforcer, message.enforcer), treeDocument(message.tree, "tree")),
    provider_data: providerDataDocument(message.providerData),
    affected_resource_types: message.affectedResourceTypes,
    main_resource_type: message.mainResourceType,
    warnings: message.warnings,
    notices: message.notices.map(noticeDocument),
    frameworks: message.frameworks.map(frameworkDocument),
    further_reading_urls: message.furtherReadingUrls.map(urlDocument),
    is_visible: message.isVisible,
    is_preventable: message.isPreventable,
    category: enumName(Category, message.category),
    security_score: enumName(Score, message.securityScore),
    seamless_score: enumName(Score, message.seamlessScore),
    initiative_slugs: message.initiativeSlugs,
  };
}

/** A definition as the tenant sees it. */
export function tenantDefinitionMessage(
  entry: TenantDefinition,
  excluded?: ReadonlySet<string>,
): PolicyDefinition {
  return definitionMessage(entry.definition, { state: entry.state, createdAt: entry.createdAt }, excluded);
}

/** A definition the tenant just stored, with the state its bundles give that slug. */
export function storedDefinitionMessage(row: TenantDefinitionRow, view: TenantCatalogue): PolicyDefinition {
  return tenantDefinitionMessage({
    definition: row.definition,
    own: true,
    createdAt: row.createdAt,
    state: view.bySlug.get(row.slug)?.state ?? PolicyDefinitionState.NOT_INSTALLED,
  });
}
