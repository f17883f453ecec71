import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type Initiative as InitiativeMessage,
  InitiativeSchema,
  type InitiativeService,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { deriveInitiatives, type Initiative } from "@palisade/policy-engine/catalogue/initiatives";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { type Caller, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import {
  definitionMessage,
  enforcerOfProvider,
  providerOfEnforcer,
} from "../policy-definition/definition-message";
import { searchText } from "../policy-definition/definition-query";
import { loadTenantCatalogue, type TenantCatalogue } from "../policy-definition/tenant-catalogue";

const MAX_LOOKUP = 128;
/** What ListInitiativePolicies leaves out of each definition, as its contract says. */
const POLICY_EXCLUDED = new Set(["tree", "provider_data"]);

interface TenantInitiatives {
  view: TenantCatalogue;
  initiatives: Initiative[];
}

/**
 * Initiatives are derived per request from the tenant's view of the catalogue, so the tenant's own
 * definitions that name a framework count towards its coverage, and installed counts follow its bundles.
 */
export function createInitiativeService(deps: {
  db: Database;
  catalogue: Catalogue;
}): Omit<ServiceImpl<typeof InitiativeService>, "installInitiative"> {
  const { db, catalogue } = deps;
  const frameworks = new Map(catalogue.frameworks.map((framework) => [framework.id, framework]));

  async function tenantInitiatives(caller: Caller): Promise<TenantInitiatives> {
    const view = await loadTenantCatalogue(db, catalogue, caller.tenantId);
    const initiatives = deriveInitiatives({
      ...catalogue,
      definitions: view.definitions.map((entry) => entry.definition),
    }).sort((a, b) => a.name.localeCompare(b.name));
    return { view, initiatives };
  }

  function find({ initiatives }: TenantInitiatives, lookup: string, field: string): Initiative {
    const key = lookup.trim();
    if (!key) throw new ConnectError(`${field}: give the initiative's id or slug.`, Code.InvalidArgument);
    if (key.length > MAX_LOOKUP) {
      throw new ConnectError(`${field}: at most ${MAX_LOOKUP} characters.`, Code.InvalidArgument);
    }
    const initiative = initiatives.find((candidate) => candidate.slug === key);
    if (!initiative) throw new ConnectError(`No initiative "${key}".`, Code.NotFound);
    return initiative;
  }

  function initiativeMessage(
    initiative: Initiative,
    { view }: TenantInitiatives,
    withClauses: boolean,
  ): InitiativeMessage {
    const installed = (slug: string) =>
      (view.bySlug.get(slug)?.state ?? PolicyDefinitionState.NOT_INSTALLED) !==
      PolicyDefinitionState.NOT_INSTALLED;
    const clauses = initiative.clauses.map((clause) => ({
      id: clause.id,
      title: clause.title,
      policySlugs: clause.definitionSlugs,
      covered: clause.definitionSlugs.length > 0,
      installed: clause.definitionSlugs.some(installed),
    }));
    const providers = new Set(
      initiative.definitionSlugs.flatMap((slug) => {
        const enforcer = view.bySlug.get(slug)?.definition.enforcer;
        return enforcer ? [providerOfEnforcer(enforcer)] : [];
      }),
    );
    const framework = frameworks.get(initiative.slug);
    return create(InitiativeSchema, {
      // One initiative per framework: its id is the framework id, as is its slug.
      id: initiative.slug,
      slug: initiative.slug,
      name: initiative.name,
      frameworkName: framework?.name ?? initiative.name,
      frameworkVersion: initiative.version,
      description: initiative.description,
      clauses: withClauses ? clauses : [],
      clausesCount: initiative.coverage.totalClauses,
      coveredClausesCount: initiative.coverage.coveredClauses,
      installedClausesCount: clauses.filter((clause) => clause.installed).length,
      policiesCount: initiative.definitionSlugs.length,
      installedPoliciesCount: initiative.definitionSlugs.filter(installed).length,
      providers: [CloudProvider.AZURE, CloudProvider.AWS].filter((provider) => providers.has(provider)),
    });
  }

  return {
    async listInitiatives(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const search = searchText(req.search);
      const enforcer = req.provider === undefined ? undefined : enforcerOfProvider(req.provider);
      const tenant = await tenantInitiatives(caller);
      const matching = tenant.initiatives.filter((initiative) => {
        if (search) {
          const framework = frameworks.get(initiative.slug);
          const texts = [initiative.name, initiative.slug, framework?.name ?? ""];
          if (!texts.some((text) => text.toLowerCase().includes(search))) return false;
        }
        return (
          !enforcer ||
          initiative.definitionSlugs.some(
            (slug) => tenant.view.bySlug.get(slug)?.definition.enforcer === enforcer,
          )
        );
      });
      return {
        items: matching
          .slice(window.offset, window.offset + window.limit)
          .map((initiative) => initiativeMessage(initiative, tenant, false)),
        pagination: pageResponse(matching.length, window),
      };
    },

    async getInitiative(req, ctx) {
      const caller = requireCaller(ctx);
      const lookup = req.lookup.case === undefined ? "" : req.lookup.value;
      const tenant = await tenantInitiatives(caller);
      const initiative = find(tenant, lookup, req.lookup.case ?? "slug");
      return { initiative: initiativeMessage(initiative, tenant, true) };
    },

    async listInitiativePolicies(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const tenant = await tenantInitiatives(caller);
      const initiative = find(tenant, req.initiative, "initiative");
      const clauseIds = (slug: string) =>
        initiative.clauses
          .filter((clause) => clause.definitionSlugs.includes(slug))
          .map((clause) => clause.id);
      let slugs = initiative.definitionSlugs;
      if (req.clause !== undefined) {
        const clause = initiative.clauses.find((candidate) => candidate.id === req.clause?.trim());
        if (!clause) {
          throw new ConnectError(
            `No clause "${req.clause.slice(0, MAX_LOOKUP)}" in ${initiative.name}.`,
            Code.NotFound,
          );
        }
        slugs = clause.definitionSlugs;
      }
      const entries = slugs
        .flatMap((slug) => {
          const entry = tenant.view.bySlug.get(slug);
          return entry ? [entry] : [];
        })
        .sort(
          (a, b) =>
            a.definition.display_name.localeCompare(b.definition.display_name) ||
            a.definition.slug.localeCompare(b.definition.slug),
        );
      return {
        items: entries.slice(window.offset, window.offset + window.limit).map((entry) => ({
          definition: definitionMessage(
            entry.definition,
            { state: entry.state, createdAt: entry.createdAt },
            POLICY_EXCLUDED,
          ),
          clauseIds: clauseIds(entry.definition.slug),
        })),
        pagination: pageResponse(entries.length, window),
      };
    },
  };
}
