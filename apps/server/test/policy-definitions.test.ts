import type { MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import { type FieldMask, FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectError } from "@connectrpc/connect";
import { CloudProvider, ErrorDetailSchema, Order } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  Enforcer,
  ListOrderBy,
  type PolicyDefinition,
  PolicyDefinitionState,
  Score,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import {
  type ListFilterSchema,
  PolicyDefinitionService,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../src/modules/audit/audit-schema";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { definitionMessage } from "../src/modules/policy-definition/definition-message";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { errorOf } from "./support/call-error";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const { catalogue } = loadCatalogue();
const visible = catalogue.definitions.filter((definition) => definition.is_visible);
const slugsOf = (definitions: readonly Definition[]) => definitions.map((d) => d.slug).sort();
const itemSlugs = (items: readonly PolicyDefinition[]) => items.map((item) => item.slug).sort();
interface ListInit {
  filter?: MessageInitShape<typeof ListFilterSchema>;
  orderBy?: ListOrderBy[];
  excludeMask?: FieldMask;
  pagination?: { page?: number; limit?: number; order?: Order };
}
const SCORE_RANK = { low: 1, medium: 2, high: 3, very_high: 4 };

function catalogueDefinition(slug: string): Definition {
  const definition = catalogue.bySlug.get(slug);
  if (!definition) throw new Error(`the catalogue has no ${slug}`);
  return definition;
}

/** A catalogue definition as a client would send it, under another slug. */
function submitted(slug: string, from = "deny-regions-outside-allowlist"): PolicyDefinition {
  return definitionMessage(
    { ...catalogueDefinition(from), slug, display_name: `Custom ${slug}` },
    { state: PolicyDefinitionState.UNSPECIFIED },
  );
}

describe.each(engines)("policy definitions on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let viewer: Credentials;
  let otherTenantId: string;
  let otherAdmin: Credentials;
  let key = 0;

  const list = async (request: ListInit, credentials = viewer) => {
    const { page = 1, limit = 200, order = Order.UNSPECIFIED } = request.pagination ?? {};
    return server.client(PolicyDefinitionService, credentials).list({
      filter: request.filter,
      orderBy: request.orderBy,
      excludeMask: request.excludeMask,
      pagination: { position: { case: "page", value: page }, limit, order },
    });
  };

  async function insertBundle(
    tenantId: string,
    policySlug: string,
    mode: "PREVENT" | "ALERT",
    deleted = false,
  ) {
    key += 1;
    await server.palisade.database.db.insert(bundles).values({
      tenantId,
      key: `TST${String(key).padStart(4, "0")}`,
      name: `${policySlug} ${mode}`,
      policySlug,
      provider: "AWS",
      mode,
      createdBy: "test",
      deletedAt: deleted ? new Date() : null,
    });
  }

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    viewer = (await server.addMember({ role: "VIEWER" })).credentials;
    otherTenantId = await server.createTenant("Other");
    otherAdmin = (await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenantId })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists the whole catalogue page by page, by name", async () => {
    const limit = 10;
    const seen: string[] = [];
    const first = await list({ pagination: { limit } });
    expect(first.pagination?.totalItems).toBe(visible.length);
    expect(first.pagination?.position).toEqual({
      case: "totalPages",
      value: Math.ceil(visible.length / limit),
    });
    for (let page = 1; page <= Math.ceil(visible.length / limit); page++) {
      const response = await list({ pagination: { page, limit } });
      expect(response.items.length).toBeLessThanOrEqual(limit);
      seen.push(...response.items.map((item) => item.displayName));
    }
    const byName = [...visible]
      .sort(
        (a, b) =>
          a.display_name.localeCompare(b.display_name, "en", { sensitivity: "base" }) ||
          a.slug.localeCompare(b.slug),
      )
      .map((d) => d.display_name);
    expect(seen).toEqual(byName);
  });

  it.each<[string, ListInit["filter"], (d: Definition) => boolean]>([
    ["AWS", { cloudProviders: [CloudProvider.AWS] }, (d) => d.enforcer === "aws_scp"],
    ["Azure", { cloudProviders: [CloudProvider.AZURE] }, (d) => d.enforcer === "azure_policy"],
    [
      "an initiative",
      { initiativeSlugs: ["cis-azure-foundations-2.1.0"] },
      (d) => d.initiative_slugs.includes("cis-azure-foundations-2.1.0"),
    ],
    [
      "a framework",
      { frameworks: ["pci-dss-4.0"] },
      (d) => d.frameworks.some((f) => f.name === "pci-dss-4.0"),
    ],
    [
      "an affected resource type",
      { affectedResourceTypes: ["Microsoft.Storage/storageAccounts"] },
      (d) => d.affected_resource_types.includes("Microsoft.Storage/storageAccounts"),
    ],
    [
      "main resource types",
      { mainResourceTypes: ["AWS::S3::Bucket", "Microsoft.Network/networkSecurityGroups"] },
      (d) => ["AWS::S3::Bucket", "Microsoft.Network/networkSecurityGroups"].includes(d.main_resource_type),
    ],
    [
      "slugs",
      { slugs: ["allowed-locations", "deny-leave-organization"] },
      (d) => ["allowed-locations", "deny-leave-organization"].includes(d.slug),
    ],
    [
      "a case-insensitive search",
      { search: "ImDs" },
      (d) => [d.slug, d.display_name, d.description].some((text) => text.toLowerCase().includes("imds")),
    ],
    ["a one-character search, ignored", { search: "s" }, () => true],
    [
      "a provider and a framework together",
      { cloudProviders: [CloudProvider.AWS], frameworks: ["iso-iec-27001-2022"] },
      (d) => d.enforcer === "aws_scp" && d.frameworks.some((f) => f.name === "iso-iec-27001-2022"),
    ],
  ])("narrows to %s", async (_name, filter, expected) => {
    const wanted = slugsOf(visible.filter(expected));
    expect(wanted.length).toBeGreaterThan(0);
    const response = await list({ filter });
    expect(itemSlugs(response.items)).toEqual(wanted);
    expect(response.pagination?.totalItems).toBe(wanted.length);
  });

  it("answers only aws_scp definitions, and all of them, for AWS", async () => {
    const response = await list({ filter: { cloudProviders: [CloudProvider.AWS] } });
    expect(response.items.every((item) => item.enforcer === Enforcer.AWS_SCP)).toBe(true);
    expect(response.items.every((item) => item.supportedProvider === CloudProvider.AWS)).toBe(true);
    expect(response.items).toHaveLength(visible.filter((d) => d.enforcer === "aws_scp").length);
  });

  it("orders by security score, highest first unless asked otherwise, then by name", async () => {
    const rank = (item: PolicyDefinition) => item.securityScore;
    const descending = await list({ orderBy: [ListOrderBy.SECURITY_SCORE, ListOrderBy.NAME] });
    const ranks = descending.items.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(new Set(ranks).size).toBeGreaterThan(1);
    for (let i = 1; i < descending.items.length; i++) {
      const [previous, current] = [descending.items[i - 1]!, descending.items[i]!];
      if (previous.securityScore === current.securityScore) {
        expect(
          previous.displayName.localeCompare(current.displayName, "en", { sensitivity: "base" }),
        ).toBeLessThanOrEqual(0);
      }
    }
    const ascending = await list({
      orderBy: [ListOrderBy.SEAMLESS_SCORE],
      pagination: { order: Order.ASCENDING },
    });
    const seamless = ascending.items.map((item) => item.seamlessScore);
    expect(seamless).toEqual([...seamless].sort((a, b) => a - b));
    expect(seamless[0]).toBe(Math.min(...visible.map((d) => SCORE_RANK[d.seamless_score])) as Score);
  });

  it("leaves out the fields of the exclude mask", async () => {
    const response = await list({
      filter: { slugs: ["allowed-locations"] },
      excludeMask: create(FieldMaskSchema, { paths: ["description", "tree", "provider_data"] }),
    });
    const [item] = response.items;
    expect(item?.displayName).toBe(catalogueDefinition("allowed-locations").display_name);
    expect(item?.description).toBe("");
    expect(item?.tree).toBeUndefined();
    expect(item?.providerData).toBeUndefined();
    const full = await server.client(PolicyDefinitionService, viewer).get({ slug: "allowed-locations" });
    expect(full.policyDefinition?.description).toBe(catalogueDefinition("allowed-locations").description);
    expect(full.policyDefinition?.tree?.node.case).toBeDefined();
    expect(full.policyDefinition?.providerData?.provider.case).toBe("azure");
  });

  it("gets a definition by slug with every field of the catalogue", async () => {
    const source = catalogueDefinition("deny-regions-outside-allowlist");
    const { policyDefinition } = await server
      .client(PolicyDefinitionService, viewer)
      .get({ slug: "deny-regions-outside-allowlist" });
    expect(policyDefinition?.displayName).toBe(source.display_name);
    expect(policyDefinition?.feedbackMessageTemplate).toBe(source.feedback_message_template);
    expect(policyDefinition?.furtherReadingUrls.map((u) => u.href)).toEqual(
      source.further_reading_urls.map((u) => u.href),
    );
    expect(policyDefinition?.frameworks.map((f) => `${f.name}/${f.section}`)).toEqual(
      source.frameworks.map((f) => `${f.name}/${f.section}`),
    );
    expect(policyDefinition?.initiativeSlugs).toEqual(source.initiative_slugs);
    expect(policyDefinition?.state).toBe(PolicyDefinitionState.NOT_INSTALLED);
    const parameter = policyDefinition?.parameterDefinitions[0];
    expect(parameter?.name).toBe(source.parameter_definitions[0]?.name);
    expect(
      parameter?.defaultValue?.kind.case === "listValue"
        ? parameter.defaultValue.kind.value.values.map((v) => v.kind.value)
        : undefined,
    ).toEqual(source.parameter_definitions[0]?.default_value);
  });

  it("answers not_found naming the slug", async () => {
    const error = await errorOf(
      server.client(PolicyDefinitionService, viewer).get({ slug: "no-such-policy" }),
    );
    expect(error.code).toBe(Code.NotFound);
    expect(error.rawMessage).toContain("no-such-policy");
  });

  it("lists resource types and frameworks, per provider", async () => {
    const client = server.client(PolicyDefinitionService, viewer);
    const affected = await client.listAffectedResources({ cloudProvider: CloudProvider.AZURE });
    expect(affected.resourceTypes).toEqual(
      [
        ...new Set(
          visible.filter((d) => d.enforcer === "azure_policy").flatMap((d) => d.affected_resource_types),
        ),
      ].sort(),
    );
    const main = await client.listMainResources({});
    expect(main.resourceTypes).toEqual([...new Set(visible.map((d) => d.main_resource_type))].sort());
    const frameworks = await client.listFrameworks({});
    expect(frameworks.frameworks).toEqual(catalogue.frameworks.map((f) => f.id).sort());
    const aws = await client.listFrameworks({ cloudProvider: CloudProvider.AWS });
    expect(aws.frameworks).not.toContain("cis-azure-foundations-2.1.0");
    expect(aws.frameworks).toContain("cis-aws-foundations-3.0.0");
  });

  it("derives the state from the tenant's live bundles", async () => {
    const tenantId = server.defaultTenantId;
    const slug = "deny-leave-organization";
    const stateOf = async (credentials = viewer) =>
      (await server.client(PolicyDefinitionService, credentials).get({ slug })).policyDefinition?.state;
    await insertBundle(tenantId, slug, "PREVENT", true);
    expect(await stateOf()).toBe(PolicyDefinitionState.NOT_INSTALLED);
    await insertBundle(tenantId, slug, "ALERT");
    expect(await stateOf()).toBe(PolicyDefinitionState.ALERT);
    await insertBundle(tenantId, slug, "PREVENT");
    expect(await stateOf()).toBe(PolicyDefinitionState.PREVENT);
    // Another tenant's bundles say nothing about this one.
    expect(await stateOf(otherAdmin)).toBe(PolicyDefinitionState.NOT_INSTALLED);
    const prevented = await list({ filter: { states: [PolicyDefinitionState.PREVENT] } });
    expect(itemSlugs(prevented.items)).toEqual([slug]);
  });

  it("creates a tenant's own definition, visible to that tenant only", async () => {
    const definitions = server.client(PolicyDefinitionService, admin);
    const created = await definitions.create({ policyDefinition: submitted("acme-allowed-regions") });
    expect(created.policyDefinition?.slug).toBe("acme-allowed-regions");
    expect(created.policyDefinition?.createdAt).toBeDefined();
    expect(created.policyDefinition?.state).toBe(PolicyDefinitionState.NOT_INSTALLED);

    const fetched = await server
      .client(PolicyDefinitionService, viewer)
      .get({ slug: "acme-allowed-regions" });
    expect(fetched.policyDefinition?.displayName).toBe("Custom acme-allowed-regions");
    const all = await list({});
    expect(all.pagination?.totalItems).toBe(visible.length + 1);

    const foreign = await errorOf(
      server.client(PolicyDefinitionService, otherAdmin).get({ slug: "acme-allowed-regions" }),
    );
    expect(foreign.code).toBe(Code.NotFound);
    expect((await list({}, otherAdmin)).pagination?.totalItems).toBe(visible.length);

    const again = await errorOf(definitions.create({ policyDefinition: submitted("acme-allowed-regions") }));
    expect(again.code).toBe(Code.AlreadyExists);
    const entries = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "PolicyDefinitionService.Create"),
          eq(auditLog.targetId, "acme-allowed-regions"),
        ),
      );
    expect(entries).toHaveLength(1);
  });

  it("refuses an invalid definition naming the field", async () => {
    const definition = submitted("acme-broken");
    const parameter = definition.parameterDefinitions[0];
    if (!parameter) throw new Error("the source definition has no parameter");
    parameter.type = 0;
    const error = await errorOf(
      server.client(PolicyDefinitionService, admin).create({ policyDefinition: definition }),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toMatch(/parameter_definitions\[0\]\.type: /);

    const unknownClause = submitted("acme-unknown-clause");
    unknownClause.frameworks = [{ ...unknownClause.frameworks[0]!, section: "99.99" }];
    const clauseError = await errorOf(
      server.client(PolicyDefinitionService, admin).create({ policyDefinition: unknownClause }),
    );
    expect(clauseError.rawMessage).toMatch(/frameworks\[0\]\.section: 99\.99 is not a clause/);
  });

  it("refuses a catalogue slug on Create and accepts it on Upgrade, for the upgrading tenant only", async () => {
    const slug = "require-ec2-imdsv2";
    const definitions = server.client(PolicyDefinitionService, admin);
    const refused = await errorOf(definitions.create({ policyDefinition: submitted(slug, slug) }));
    expect(refused.code).toBe(Code.AlreadyExists);

    const upgraded = await definitions.upgrade({ policyDefinition: submitted(slug, slug) });
    expect(upgraded.policyDefinition?.displayName).toBe(`Custom ${slug}`);
    expect((await definitions.get({ slug })).policyDefinition?.displayName).toBe(`Custom ${slug}`);
    expect((await list({ filter: { slugs: [slug] } })).items.map((item) => item.displayName)).toEqual([
      `Custom ${slug}`,
    ]);
    expect(
      (await server.client(PolicyDefinitionService, otherAdmin).get({ slug })).policyDefinition?.displayName,
    ).toBe(catalogueDefinition(slug).display_name);

    const otherEnforcer = await errorOf(
      definitions.upgrade({ policyDefinition: submitted(slug, "allowed-locations") }),
    );
    expect(otherEnforcer.code).toBe(Code.InvalidArgument);
    expect(otherEnforcer.rawMessage).toMatch(/enforcer: must stay aws_scp/);
    const missing = await errorOf(definitions.upgrade({ policyDefinition: submitted("acme-never-created") }));
    expect(missing.code).toBe(Code.NotFound);
  });

  it("refuses further-reading links other than http(s) on Create, Update and Upgrade", async () => {
    const definitions = server.client(PolicyDefinitionService, admin);
    const withLink = (slug: string, from: string | undefined, href: string) => {
      const definition = submitted(slug, from);
      definition.furtherReadingUrls = [{ $typeName: "palisade.policydefinition.v1.Url", name: "Read", href }];
      return definition;
    };
    const expectRefused = (error: ConnectError, field: string) => {
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.findDetails(ErrorDetailSchema)[0]?.fieldViolations.map((v) => v.field)).toContain(field);
    };
    const created = await errorOf(
      definitions.create({ policyDefinition: withLink("acme-bad-link", undefined, "javascript:alert(1)") }),
    );
    expectRefused(created, "policy_definition.further_reading_urls[0].href");
    expect(created.rawMessage).toMatch(/only https and http links are allowed/);
    const upgraded = await errorOf(
      definitions.upgrade({
        policyDefinition: withLink("require-ec2-imdsv2", "require-ec2-imdsv2", "data:text/html,x"),
      }),
    );
    expectRefused(upgraded, "policy_definition.further_reading_urls[0].href");

    await definitions.create({
      policyDefinition: withLink("acme-good-link", undefined, "https://example.com/a"),
    });
    const updated = await errorOf(
      definitions.update({
        slug: "acme-good-link",
        furtherReadingUrls: { items: [{ name: "Read", href: "ftp://example.com/file" }] },
      }),
    );
    expectRefused(updated, "further_reading_urls[0].href");
    const kept = await definitions.get({ slug: "acme-good-link" });
    expect(kept.policyDefinition?.furtherReadingUrls.map((u) => u.href)).toEqual(["https://example.com/a"]);
  });

  it("updates descriptive fields of the tenant's own definition", async () => {
    const definitions = server.client(PolicyDefinitionService, admin);
    await definitions.create({ policyDefinition: submitted("acme-update-me") });
    const updated = await definitions.update({
      slug: "acme-update-me",
      displayName: "Regions we operate in",
      securityScore: Score.VERY_HIGH,
      warnings: { values: [] },
    });
    expect(updated.policyDefinition?.displayName).toBe("Regions we operate in");
    expect(updated.policyDefinition?.securityScore).toBe(Score.VERY_HIGH);
    expect(updated.policyDefinition?.warnings).toEqual([]);
    expect(updated.policyDefinition?.parameterDefinitions).toHaveLength(
      catalogueDefinition("deny-regions-outside-allowlist").parameter_definitions.length,
    );
    const tooLong = await errorOf(
      definitions.update({ slug: "acme-update-me", displayName: "x".repeat(121) }),
    );
    expect(tooLong.rawMessage).toMatch(/display_name: /);
    const catalogueOnly = await errorOf(
      definitions.update({ slug: "allowed-locations", displayName: "Mine" }),
    );
    expect(catalogueOnly.code).toBe(Code.FailedPrecondition);
  });

  it("checks list arguments", async () => {
    const provider = await errorOf(list({ filter: { cloudProviders: [CloudProvider.UNSPECIFIED] } }));
    expect(provider.code).toBe(Code.InvalidArgument);
    expect(provider.rawMessage).toMatch(/filter\.cloud_providers/);
    const search = await errorOf(list({ filter: { search: "x".repeat(101) } }));
    expect(search.rawMessage).toMatch(/filter\.search: must be at most 100 characters/);
    const mask = await errorOf(list({ excludeMask: create(FieldMaskSchema, { paths: ["nope"] }) }));
    expect(mask.rawMessage).toMatch(/exclude_mask: "nope"/);
  });
});
