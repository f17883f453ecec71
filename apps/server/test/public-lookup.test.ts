import { Code } from "@connectrpc/connect";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { definitionMessage } from "../src/modules/policy-definition/definition-message";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { errorOf } from "./support/call-error";
import { engines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

const { catalogue } = loadCatalogue();
const SLUG = "deny-iam-user-access-keys";

describe.each(engines)("public definition lookup on %s", (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers a catalogue definition's slug, name and further reading without sign-in", async () => {
    const definition = catalogue.bySlug.get(SLUG);
    if (!definition) throw new Error(`the catalogue has no ${SLUG}`);
    const response = await server.client(PolicyService).getDefinitionBySlug({ slug: SLUG });
    expect(response.slug).toBe(SLUG);
    expect(response.displayName).toBe(definition.display_name);
    expect(response.furtherReadingUrls.map(({ name, href }) => ({ name, href }))).toEqual(
      definition.further_reading_urls,
    );
  });

  it("answers those three fields and nothing else", async () => {
    const response = await fetch(`${server.url}/palisade.policy.v1.PolicyService/GetDefinitionBySlug`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ slug: SLUG }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["displayName", "furtherReadingUrls", "slug"]);
    for (const url of body.furtherReadingUrls as Record<string, unknown>[]) {
      expect(Object.keys(url).sort()).toEqual(["href", "name"]);
    }
  });

  it("answers not_found for an unknown slug and for a tenant's own definition", async () => {
    const client = server.client(PolicyService);
    expect((await errorOf(client.getDefinitionBySlug({ slug: "no-such-policy" }))).code).toBe(Code.NotFound);

    const admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
    const source = catalogue.bySlug.get(SLUG);
    if (!source) throw new Error(`the catalogue has no ${SLUG}`);
    await server.client(PolicyDefinitionService, admin).create({
      policyDefinition: definitionMessage(
        { ...source, slug: "acme-private-policy" },
        { state: PolicyDefinitionState.UNSPECIFIED },
      ),
    });
    const error = await errorOf(client.getDefinitionBySlug({ slug: "acme-private-policy" }));
    expect(error.code).toBe(Code.NotFound);
  });
});

describe.each(engines)("public deny message resolution on %s", (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const unknownScpDeny =
    "User: arn:aws:sts::111122223333:assumed-role/dev/jo is not authorized to perform: s3:DeleteBucket " +
    "on resource: arn:aws:s3:::logs with an explicit deny in a service control policy: " +
    "arn:aws:organizations::111122223333:policy/o-a1b2c3d4e5/service_control_policy/p-zz99yy88";

  it.each([
    ["an SCP no deployment was made as", unknownScpDeny],
    ["a key no bundle holds", "RequestDisallowedByPolicy ... policy key ZZZZZZZ"],
    ["text naming no policy", "AccessDenied"],
  ])("answers not_found for %s without sign-in", async (_, text) => {
    const error = await errorOf(server.client(PolicyService).resolvePolicyKey({ text }));
    expect(error.code).toBe(Code.NotFound);
  });

  it("refuses a text over 4,000 characters", async () => {
    const error = await errorOf(server.client(PolicyService).resolvePolicyKey({ text: "x".repeat(4001) }));
    expect(error.code).toBe(Code.InvalidArgument);
  });
});

describe.each(engines)("public key lookup on %s", (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stops answering a deleted bundle's key at once, though its card was cached", async () => {
    const key = "BKP7CQ2";
    const db = server.palisade.database.db;
    await db.insert(bundles).values({
      tenantId: server.defaultTenantId,
      key,
      name: "Cached card",
      policySlug: "deny-ec2-serial-console-access",
      provider: "AWS",
      mode: "PREVENT",
      status: "DEPLOYED",
      scopes: [{ id: "111122223333" }],
      waiverApprovalMode: "AUTO",
      createdBy: "test",
    });
    const client = server.client(PolicyService);
    // Looked up by many at once and again: one card, cached, answered alike.
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.getBundleByKey({ key })));
    expect(new Set(answers.map((a) => a.policySlug))).toEqual(new Set(["deny-ec2-serial-console-access"]));
    expect((await client.getBundleByKey({ key })).key).toBe(key);

    // A changed setting shows at once too (the card shows the bundle's parameters).
    expect((await client.getBundleByKey({ key })).parameters.map((p) => p.name)).toContain("admin_tag_key");
    await db
      .update(bundles)
      .set({ parameters: { admin_tag_key: "changed-value" } })
      .where(eq(bundles.key, key));
    const changed = await eventually(async () => {
      const card = await client.getBundleByKey({ key });
      const value = card.parameters.find((p) => p.name === "admin_tag_key")?.value;
      return JSON.stringify(value).includes("changed-value") ? card : undefined;
    });
    expect(changed).toBeDefined();

    await db.update(bundles).set({ deletedAt: new Date() }).where(eq(bundles.key, key));
    // Well within the cache's 10 s: the database's notification forgets the key on every replica.
    const deadline = Date.now() + 2_000;
    let code: Code | undefined;
    while (Date.now() < deadline) {
      code = (await errorOf(client.getBundleByKey({ key })).catch(() => undefined))?.code;
      if (code === Code.NotFound) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(code).toBe(Code.NotFound);
  });
});

/** What `check` answers within 2 s (well within the lookup cache's 10 s), polled; undefined if nothing. */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}
