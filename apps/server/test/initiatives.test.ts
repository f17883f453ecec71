import { Code } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { deriveInitiatives } from "@palisade/policy-engine/catalogue/initiatives";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { errorOf } from "./support/call-error";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const { catalogue } = loadCatalogue();
const derived = deriveInitiatives(catalogue);
const CIS_AZURE = "cis-azure-foundations-2.1.0";

function initiative(slug: string) {
  const found = derived.find((candidate) => candidate.slug === slug);
  if (!found) throw new Error(`the catalogue has no framework ${slug}`);
  return found;
}

describe.each(engines)("initiatives on %s", (engine) => {
  let server: TestServer;
  let viewer: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine);
    viewer = (await server.addMember({ role: "VIEWER" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists one initiative per framework, by name, with coverage counts", async () => {
    const response = await server.client(InitiativeService, viewer).listInitiatives({});
    expect(response.pagination?.totalItems).toBe(catalogue.frameworks.length);
    expect(response.items.map((item) => item.name)).toEqual(
      derived.map((i) => i.name).sort((a, b) => a.localeCompare(b)),
    );
    for (const item of response.items) {
      const expected = initiative(item.slug);
      expect(item.clauses).toEqual([]);
      expect(item.clausesCount).toBe(expected.coverage.totalClauses);
      expect(item.coveredClausesCount).toBe(expected.coverage.coveredClauses);
      expect(item.policiesCount).toBe(expected.definitionSlugs.length);
      expect(item.installedPoliciesCount).toBe(0);
    }
  });

  it("searches and filters by provider", async () => {
    const client = server.client(InitiativeService, viewer);
    const found = await client.listInitiatives({ search: "azure" });
    expect(found.items.map((item) => item.slug)).toEqual([CIS_AZURE]);
    const azure = await client.listInitiatives({ provider: CloudProvider.AZURE });
    const withAzure = derived
      .filter((i) =>
        i.definitionSlugs.some((slug) => catalogue.bySlug.get(slug)?.enforcer === "azure_policy"),
      )
      .map((i) => i.slug)
      .sort();
    expect(azure.items.map((item) => item.slug).sort()).toEqual(withAzure);
    expect(azure.items.every((item) => item.providers.includes(CloudProvider.AZURE))).toBe(true);
    const paged = await client.listInitiatives({
      pagination: { position: { case: "page", value: 2 }, limit: 4 },
    });
    expect(paged.items).toHaveLength(catalogue.frameworks.length - 4);
  });

  it("gets an initiative by slug or id with every clause and its covering policies", async () => {
    const client = server.client(InitiativeService, viewer);
    const expected = initiative(CIS_AZURE);
    const bySlug = await client.getInitiative({ lookup: { case: "slug", value: CIS_AZURE } });
    const got = bySlug.initiative;
    expect(got?.frameworkName).toBe(catalogue.frameworks.find((f) => f.id === CIS_AZURE)?.name);
    expect(got?.description).toBe(expected.description);
    expect(got?.clauses.map((c) => [c.id, c.policySlugs, c.covered])).toEqual(
      expected.clauses.map((c) => [c.id, c.definitionSlugs, c.definitionSlugs.length > 0]),
    );
    expect(got?.clauses.filter((c) => !c.covered).map((c) => c.id)).toEqual(
      expected.uncoveredClauses.map((c) => c.id),
    );
    expect(got?.coveredClausesCount).toBe(expected.coverage.coveredClauses);
    expect(got?.providers).toEqual([CloudProvider.AZURE]);
    const byId = await client.getInitiative({ lookup: { case: "id", value: got?.id ?? "" } });
    expect(byId.initiative?.slug).toBe(CIS_AZURE);
    const missing = await errorOf(
      client.getInitiative({ lookup: { case: "slug", value: "no-such-framework" } }),
    );
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.rawMessage).toContain("no-such-framework");
  });

  it("lists an initiative's policies, optionally for one clause", async () => {
    const client = server.client(InitiativeService, viewer);
    const expected = initiative(CIS_AZURE);
    const all = await client.listInitiativePolicies({ initiative: CIS_AZURE, pagination: { limit: 200 } });
    expect(all.items.map((item) => item.definition?.slug).sort()).toEqual(expected.definitionSlugs);
    for (const item of all.items) {
      expect(item.definition?.tree).toBeUndefined();
      expect(item.clauseIds).toEqual(
        expected.clauses
          .filter((c) => c.definitionSlugs.includes(item.definition?.slug ?? ""))
          .map((c) => c.id),
      );
    }
    const clause = expected.clauses.find((c) => c.definitionSlugs.length > 0);
    if (!clause) throw new Error(`${CIS_AZURE} covers no clause`);
    const forClause = await client.listInitiativePolicies({ initiative: CIS_AZURE, clause: clause.id });
    expect(forClause.items.map((item) => item.definition?.slug).sort()).toEqual(clause.definitionSlugs);
    const unknown = await errorOf(client.listInitiativePolicies({ initiative: CIS_AZURE, clause: "99.99" }));
    expect(unknown.code).toBe(Code.NotFound);
  });

  it("counts installed clauses and policies from the tenant's bundles", async () => {
    const expected = initiative(CIS_AZURE);
    const clause = expected.clauses.find((c) => c.definitionSlugs.length > 0);
    const slug = clause?.definitionSlugs[0];
    if (!clause || !slug) throw new Error(`${CIS_AZURE} covers no clause`);
    await server.palisade.database.db.insert(bundles).values({
      tenantId: server.defaultTenantId,
      key: "INIT001",
      name: slug,
      policySlug: slug,
      provider: "AZURE",
      mode: "ALERT",
      createdBy: "test",
    });
    const client = server.client(InitiativeService, viewer);
    const got = (await client.getInitiative({ lookup: { case: "slug", value: CIS_AZURE } })).initiative;
    expect(got?.installedPoliciesCount).toBe(1);
    const installed = got?.clauses.filter((c) => c.installed).map((c) => c.id);
    expect(installed).toEqual(
      expected.clauses.filter((c) => c.definitionSlugs.includes(slug)).map((c) => c.id),
    );
    expect(got?.installedClausesCount).toBe(installed?.length);
    const policies = await client.listInitiativePolicies({ initiative: CIS_AZURE, clause: clause.id });
    expect(policies.items.find((item) => item.definition?.slug === slug)?.definition?.state).toBe(
      PolicyDefinitionState.ALERT,
    );
  });
});
