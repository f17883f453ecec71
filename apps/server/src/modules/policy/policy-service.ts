import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { GetPoliciesFilter, PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import {
  Category,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import {
  findPolicyKeyInText,
  isPolicyKeyFormat,
  normalizePolicyKey,
} from "@palisade/policy-engine/keys/policy-key";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles, deployments } from "../../db/schema/deployments";
import { requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { findBundleByKey, policyUsage } from "../deployment/deployment-repository";
import { definitionMessage, enforcerOfProvider, enumName } from "../policy-definition/definition-message";
import { searchText, sortDefinitions } from "../policy-definition/definition-query";
import { requireSlug } from "../policy-definition/policy-definition-service";
import { loadTenantCatalogue, type TenantDefinition } from "../policy-definition/tenant-catalogue";
import { createTtlCache } from "./ttl-cache";

const MAX_VALUES = 200;
/** A deny message with its request id and encoded authorization details fits well within this. */
export const MAX_DENY_MESSAGE_LENGTH = 4000;
/** GetPolicies leaves out the two largest fields: the tree and the provider data. */
const POLICY_EXCLUDED: ReadonlySet<string> = new Set(["tree", "provider_data"]);

function values(field: string, list: readonly string[]): ReadonlySet<string> {
  if (list.length > MAX_VALUES || list.some((value) => value.length > 200)) {
    throw new ConnectError(
      `filter.${field}: at most ${MAX_VALUES} values of 200 characters.`,
      Code.InvalidArgument,
    );
  }
  return new Set(list);
}

export type PolicyMatcher = (entry: TenantDefinition) => boolean;

/** Every given filter must match; within one filter, any of its values. */
export function policyMatcher(filter: GetPoliciesFilter | undefined): PolicyMatcher {
  const search = searchText(filter?.search, "filter.search");
  const states = new Set(filter?.states ?? []);
  if ([...states].some((state) => state === 0 || PolicyDefinitionState[state] === undefined)) {
    throw new ConnectError("filter.states: use NOT_INSTALLED, ALERT or PREVENT.", Code.InvalidArgument);
  }
  const enforcers = new Set(
    (filter?.cloudProviders ?? []).map((provider) => {
      const enforcer = enforcerOfProvider(provider);
      if (!enforcer) {
        throw new ConnectError(
          `filter.cloud_providers: ${CloudProvider[provider] ?? provider} is not a cloud provider; use AWS or AZURE.`,
          Code.InvalidArgument,
        );
      }
      return enforcer;
    }),
  );
  const categories = new Set(
    (filter?.categories ?? []).map((category) => {
      const name = enumName(Category, category);
      if (!name) throw new ConnectError("filter.categories: unknown category.", Code.InvalidArgument);
      return name;
    }),
  );
  const initiatives = values("initiative_slugs", filter?.initiativeSlugs ?? []);
  const frameworks = values("frameworks", filter?.frameworks ?? []);
  const affected = values("affected_resource_types", filter?.affectedResourceTypes ?? []);
  const slugs = values("slugs", filter?.slugs ?? []);
  const anyOf = (wanted: ReadonlySet<string>, have: readonly string[]) =>
    wanted.size === 0 || have.some((value) => wanted.has(value));

  return ({ definition, state }) =>
    (slugs.size === 0 || slugs.has(definition.slug)) &&
    (states.size === 0 || states.has(state)) &&
    (enforcers.size === 0 || enforcers.has(definition.enforcer)) &&
    (categories.size === 0 || categories.has(definition.category)) &&
    anyOf(initiatives, definition.initiative_slugs) &&
    anyOf(
      frameworks,
      definition.frameworks.map((framework) => framework.name),
    ) &&
    anyOf(affected, definition.affected_resource_types) &&
    (!search ||
      definition.slug.toLowerCase().includes(search) ||
      definition.display_name.toLowerCase().includes(search));
}

/** The tenant's policies (catalogue joined with its bundles) and the public waiver page's lookups. */
export function createPolicyService(deps: {
  db: Database;
  catalogue: Catalogue;
}): ServiceImpl<typeof PolicyService> {
  const { db, catalogue } = deps;
  // Cards of the public key lookup, found or not; a deleted bundle stops answering within 10 s.
  const bundleCards = createTtlCache<
    { key: string; policySlug: string; feedbackMessage: string } | undefined
  >({
    ttlMs: 10_000,
    maxEntries: 10_000,
  });
  return {
    async getPolicies(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const matches = policyMatcher(req.filter);
      const [view, usage] = await Promise.all([
        loadTenantCatalogue(db, catalogue, caller.tenantId),
        policyUsage(db, caller.tenantId),
      ]);
      const matching = view.definitions.filter((entry) => entry.definition.is_visible && matches(entry));
      const sorted = sortDefinitions(matching, req.orderBy, req.pagination?.order ?? 0);
      const page = sorted.slice(window.offset, window.offset + window.limit);
      return {
        items: page.map((entry) => {
          const used = usage.get(entry.definition.slug);
          return {
            definition: definitionMessage(
              entry.definition,
              { state: entry.state, createdAt: entry.createdAt },
              POLICY_EXCLUDED,
            ),
            state: entry.state,
            bundlesCount: used?.bundles ?? 0,
            preventBundlesCount: used?.prevent ?? 0,
            alertBundlesCount: used?.alert ?? 0,
            preventionsCount: used?.preventions ?? 0,
            driftsCount: used?.drifts ?? 0,
            activeWaiversCount: used?.activeWaivers ?? 0,
          };
        }),
        pagination: pageResponse(sorted.length, window),
      };
    },

    /**
     * Public: keys are unique across tenants, so no tenant is needed; only what the waiver page's
     * card shows is answered. Deleted bundles are not found.
     */
    async getBundleByKey(req) {
      const key = normalizePolicyKey(req.key);
      if (!isPolicyKeyFormat(key)) {
        throw new ConnectError(
          "key: a policy key is 7 characters (0-9, A-Z without I, L, O, U).",
          Code.InvalidArgument,
        );
      }
      const card = await bundleCards.get(key, async () => {
        const bundle = await findBundleByKey(db, key);
        return bundle && !bundle.deletedAt
          ? { key: bundle.key, policySlug: bundle.policySlug, feedbackMessage: bundle.feedbackMessage }
          : undefined;
      });
      if (!card) throw new ConnectError(`No policy with key ${key}.`, Code.NotFound);
      return card;
    },

    /**
     * Public: the page has no tenant, so only catalogue definitions are looked up (a tenant's own
     * definitions stay private), and nothing but the links is answered.
     */
    async getDefinitionBySlug(req) {
      const slug = requireSlug(req.slug);
      const definition = catalogue.bySlug.get(slug);
      if (!definition) throw new ConnectError(`No policy definition with slug "${slug}".`, Code.NotFound);
      return {
        slug: definition.slug,
        furtherReadingUrls: definition.further_reading_urls.map(({ name, href }) => ({ name, href })),
      };
    },

    /**
     * Public: AWS deny messages name the SCP, not the key, so the SCP id is mapped to the key of
     * the bundle deployed as that SCP. A key written in the text itself counts only when a bundle
     * holds it, so the answer never confirms more than GetBundleByKey would.
     */
    async resolvePolicyKey(req) {
      if (req.text.length > MAX_DENY_MESSAGE_LENGTH) {
        throw new ConnectError(
          `text: at most ${MAX_DENY_MESSAGE_LENGTH} characters; paste the deny message only.`,
          Code.InvalidArgument,
        );
      }
      const found = findPolicyKeyInText(req.text);
      if (found.scpPolicyIds.length > 0) {
        const [row] = await db
          .select({ key: bundles.key })
          .from(deployments)
          .innerJoin(bundles, eq(bundles.id, deployments.bundleId))
          .where(
            and(inArray(deployments.nativeId, found.scpPolicyIds.slice(0, 5)), isNull(bundles.deletedAt)),
          )
          .limit(1);
        if (row) return { key: row.key };
      }
      if (found.key) {
        const bundle = await findBundleByKey(db, found.key);
        if (bundle && !bundle.deletedAt) return { key: bundle.key };
      }
      throw new ConnectError("No deployed policy is named in this message.", Code.NotFound);
    },
  };
}
