import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import {
  Category,
  type PolicyDefinition,
  PolicyDefinitionState,
  Score,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type {
  PolicyDefinitionService,
  UpdateRequest,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { parseSubmittedDefinition } from "@palisade/policy-engine/catalogue/submitted-definition";
import type { Database } from "../../db/database";
import { type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import {
  definitionDocument,
  definitionMessage,
  enforcerOfProvider,
  enumName,
  excludedFields,
  frameworkDocument,
  noticeDocument,
  urlDocument,
} from "./definition-message";
import { matchesFilter, readFilter, sortDefinitions } from "./definition-query";
import {
  findTenantDefinition,
  insertTenantDefinition,
  type TenantDefinitionRow,
  upsertTenantDefinition,
} from "./policy-definition-repository";
import { loadTenantCatalogue, type TenantCatalogue, type TenantDefinition } from "./tenant-catalogue";

const MAX_SLUG = 64;
/** A definition is a few kilobytes; this leaves room for large trees and descriptions. */
const MAX_DEFINITION_BYTES = 256 * 1024;

export function requireSlug(raw: string): string {
  const slug = raw.trim();
  if (slug.length === 0) throw new ConnectError("slug: required.", Code.InvalidArgument);
  if (slug.length > MAX_SLUG) {
    throw new ConnectError(`slug: at most ${MAX_SLUG} characters.`, Code.InvalidArgument);
  }
  return slug;
}

function notFound(slug: string): ConnectError {
  return new ConnectError(`No policy definition with slug "${slug}".`, Code.NotFound);
}

function message(entry: TenantDefinition, excluded?: ReadonlySet<string>): PolicyDefinition {
  return definitionMessage(entry.definition, { state: entry.state, createdAt: entry.createdAt }, excluded);
}

export function createPolicyDefinitionService(deps: {
  db: Database;
  catalogue: Catalogue;
}): ServiceImpl<typeof PolicyDefinitionService> {
  const { db, catalogue } = deps;

  const tenantView = (caller: Caller) => loadTenantCatalogue(db, catalogue, caller.tenantId);
  const visible = (view: TenantCatalogue) => view.definitions.filter((entry) => entry.definition.is_visible);

  /** Checks a definition with the catalogue's rules, against everything the tenant can refer to. */
  function checkDefinition(document: Record<string, unknown>, view: TenantCatalogue): Definition {
    if (JSON.stringify(document).length > MAX_DEFINITION_BYTES) {
      throw new ConnectError(
        `policy_definition: at most ${MAX_DEFINITION_BYTES / 1024} KB of JSON.`,
        Code.InvalidArgument,
      );
    }
    const result = parseSubmittedDefinition(document, {
      frameworks: catalogue.frameworks,
      aliases: catalogue.aliases,
      definitions: new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition])),
    });
    if (!result.ok) {
      const problems = result.problems.map((problem) =>
        problem.field ? `${problem.field}: ${problem.message}` : problem.message,
      );
      throw new ConnectError(`Invalid policy definition: ${problems.join("; ")}`, Code.InvalidArgument);
    }
    return result.definition;
  }

  function submittedDocument(definition: PolicyDefinition | undefined): Record<string, unknown> {
    if (!definition) throw new ConnectError("policy_definition: required.", Code.InvalidArgument);
    return definitionDocument(definition);
  }

  function stored(row: TenantDefinitionRow, view: TenantCatalogue): PolicyDefinition {
    const state = view.bySlug.get(row.slug)?.state;
    return message({
      definition: row.definition,
      own: true,
      createdAt: row.createdAt,
      state: state ?? PolicyDefinitionState.NOT_INSTALLED,
    });
  }

  async function audit(ctx: HandlerContext, action: string, slug: string, details: Record<string, unknown>) {
    await writeAudit(db, callContext(ctx), {
      action: `PolicyDefinitionService.${action}`,
      targetType: "policy_definition",
      targetId: slug,
      details,
    });
  }

  /** The descriptive fields an Update may change, as catalogue-format fields. */
  function updatedFields(req: UpdateRequest): Record<string, unknown> {
    const changes: Record<string, unknown> = {
      display_name: req.displayName,
      description: req.description,
      feedback_message_template: req.feedbackMessageTemplate,
      is_visible: req.isVisible,
      is_preventable: req.isPreventable,
      category: req.category === undefined ? undefined : (enumName(Category, req.category) ?? null),
      security_score:
        req.securityScore === undefined ? undefined : (enumName(Score, req.securityScore) ?? null),
      seamless_score:
        req.seamlessScore === undefined ? undefined : (enumName(Score, req.seamlessScore) ?? null),
      warnings: req.warnings?.values,
      initiative_slugs: req.initiativeSlugs?.values,
      affected_resource_types: req.affectedResourceTypes?.values,
      notices: req.notices?.items.map(noticeDocument),
      frameworks: req.frameworks?.items.map(frameworkDocument),
      further_reading_urls: req.furtherReadingUrls?.items.map(urlDocument),
    };
    return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  }

  return {
    async get(req, ctx) {
      const caller = requireCaller(ctx);
      const slug = requireSlug(req.slug);
      const excluded = excludedFields(req.excludeMask?.paths);
      // The catalogue format has no deprecated parameter type, so show_deprecated_parameters
      // never has anything to reveal.
      const entry = (await tenantView(caller)).bySlug.get(slug);
      if (!entry) throw notFound(slug);
      return { policyDefinition: message(entry, excluded) };
    },

    async list(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const filter = readFilter(req.filter);
      const excluded = excludedFields(req.excludeMask?.paths);
      const matching = visible(await tenantView(caller)).filter((entry) => matchesFilter(entry, filter));
      const sorted = sortDefinitions(matching, req.orderBy, req.pagination?.order ?? 0);
      const page = sorted.slice(window.offset, window.offset + window.limit);
      return {
        items: page.map((entry) => message(entry, excluded)),
        pagination: pageResponse(sorted.length, window),
      };
    },

    async listAffectedResources(req, ctx) {
      const caller = requireCaller(ctx);
      const enforcer = req.cloudProvider === undefined ? undefined : enforcerOfProvider(req.cloudProvider);
      const types = visible(await tenantView(caller))
        .filter((entry) => !enforcer || entry.definition.enforcer === enforcer)
        .flatMap((entry) => entry.definition.affected_resource_types);
      return { resourceTypes: [...new Set(types)].sort() };
    },

    async listMainResources(req, ctx) {
      const caller = requireCaller(ctx);
      const enforcer = req.cloudProvider === undefined ? undefined : enforcerOfProvider(req.cloudProvider);
      const types = visible(await tenantView(caller))
        .filter((entry) => !enforcer || entry.definition.enforcer === enforcer)
        .map((entry) => entry.definition.main_resource_type);
      return { resourceTypes: [...new Set(types)].sort() };
    },

    /** Every framework of the catalogue; for one provider, those its definitions name. */
    async listFrameworks(req, ctx) {
      const caller = requireCaller(ctx);
      const enforcer = req.cloudProvider === undefined ? undefined : enforcerOfProvider(req.cloudProvider);
      if (!enforcer) return { frameworks: catalogue.frameworks.map((framework) => framework.id).sort() };
      const named = visible(await tenantView(caller))
        .filter((entry) => entry.definition.enforcer === enforcer)
        .flatMap((entry) => entry.definition.frameworks.map((framework) => framework.name));
      return { frameworks: [...new Set(named)].sort() };
    },

    async create(req, ctx) {
      const caller = requireCaller(ctx);
      const document = submittedDocument(req.policyDefinition);
      const slug = requireSlug(String(document.slug));
      if (catalogue.bySlug.has(slug)) {
        throw new ConnectError(
          `${slug} is a catalogue definition; use Upgrade to replace it for this tenant.`,
          Code.AlreadyExists,
        );
      }
      const view = await tenantView(caller);
      if (view.bySlug.has(slug)) {
        throw new ConnectError(`This tenant already has a policy definition ${slug}.`, Code.AlreadyExists);
      }
      const definition = checkDefinition(document, view);
      const row = await insertTenantDefinition(db, caller.tenantId, definition, caller.id);
      if (!row)
        throw new ConnectError(`This tenant already has a policy definition ${slug}.`, Code.AlreadyExists);
      await audit(ctx, "Create", slug, { enforcer: definition.enforcer });
      return { policyDefinition: stored(row, view) };
    },

    async upgrade(req, ctx) {
      const caller = requireCaller(ctx);
      const document = submittedDocument(req.policyDefinition);
      const slug = requireSlug(String(document.slug));
      const view = await tenantView(caller);
      const current = view.bySlug.get(slug);
      if (!current) {
        throw new ConnectError(
          `No policy definition with slug "${slug}" to upgrade; use Create for a new one.`,
          Code.NotFound,
        );
      }
      if (document.enforcer !== current.definition.enforcer) {
        throw new ConnectError(
          `Invalid policy definition: enforcer: must stay ${current.definition.enforcer}, which the bundles of ${slug} are compiled for.`,
          Code.InvalidArgument,
        );
      }
      const definition = checkDefinition(document, view);
      const row = await upsertTenantDefinition(db, caller.tenantId, definition, caller.id);
      await audit(ctx, "Upgrade", slug, { replaced: current.own ? "tenant" : "catalogue" });
      return { policyDefinition: stored(row, view) };
    },

    async update(req, ctx) {
      const caller = requireCaller(ctx);
      const slug = requireSlug(req.slug);
      const current = await findTenantDefinition(db, caller.tenantId, slug);
      if (!current) {
        if (catalogue.bySlug.has(slug)) {
          throw new ConnectError(
            `${slug} is a catalogue definition; replace it for this tenant with Upgrade, then Update that version.`,
            Code.FailedPrecondition,
          );
        }
        throw notFound(slug);
      }
      const changes = updatedFields(req);
      const view = await tenantView(caller);
      const { cases: _cases, ...document } = { ...current.definition, ...changes };
      const definition = checkDefinition(document, view);
      const row = await upsertTenantDefinition(db, caller.tenantId, definition, caller.id);
      await audit(ctx, "Update", slug, { fields: Object.keys(changes) });
      return { policyDefinition: stored(row, view) };
    },
  };
}
