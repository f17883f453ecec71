import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import { eq } from "drizzle-orm";
import type { Database } from "../../src/db/database";
import { hierarchyNodes } from "../../src/modules/connector/connector-schema";
import { waitFor } from "./poll";
import type { Engine } from "./test-database";
import { type Credentials, startTestServer, type TestServer } from "./test-server";

/** A member a test asks for: a role, or a role and the display name other members see. */
export type MemberSpec = string | { role: string; name?: string };

export interface SandboxServerOptions<M extends string> {
  /** The database engine (PGlite unless a test runs on each of `engines`). */
  engine?: Engine;
  /** The members to sign in, by the name the test calls them, added in this order. */
  members: Record<M, MemberSpec>;
  /**
   * What the synced hierarchy must hold before the fixture answers: the named scopes, or
   * (by default) nodes of both the AWS and the Azure connector; `false` does not wait.
   */
  scopes?: readonly string[] | false;
  /** Extra server environment (the sandbox is on and its generated activity off). */
  env?: Record<string, string>;
}

export interface SandboxServer<M extends string> {
  server: TestServer;
  sandbox: SandboxCloud;
  tenantId: string;
  db: Database;
  /** Signed-in credentials of each member asked for. */
  members: Record<M, Credentials>;
  /** The default tenant's hierarchy once synced (empty when the fixture did not wait). */
  hierarchy: (typeof hierarchyNodes.$inferSelect)[];
  dispose(): Promise<void>;
}

/**
 * Palisade on the sandbox cloud (without generated activity), with the members a test asks
 * for signed in, once the connectors' hierarchies have synced.
 */
export async function startSandboxServer<M extends string>(
  options: SandboxServerOptions<M>,
): Promise<SandboxServer<M>> {
  const server = await startTestServer(options.engine ?? "pglite", {
    PALISADE_SANDBOX: "true",
    SANDBOX_ACTIVITY: "false",
    ...options.env,
  });
  try {
    const sandbox = server.palisade.cloud.sandbox;
    if (!sandbox) throw new Error("the sandbox cloud is not running");
    const members = {} as Record<M, Credentials>;
    for (const [key, spec] of Object.entries(options.members) as [M, MemberSpec][]) {
      const { role, name } = typeof spec === "string" ? { role: spec, name: undefined } : spec;
      members[key] = (await server.addMember({ role, name })).credentials;
    }
    const db = server.palisade.database.db;
    const tenantId = server.defaultTenantId;
    const readHierarchy = () => db.select().from(hierarchyNodes).where(eq(hierarchyNodes.tenantId, tenantId));
    const scopes = options.scopes;
    const hierarchy =
      scopes === false
        ? []
        : await waitFor(
            scopes ? `the sandbox scopes ${scopes.join(", ")}` : "the sandbox hierarchies",
            async () => {
              const nodes = await readHierarchy();
              const names = new Set(nodes.map((n) => n.name));
              const synced = scopes
                ? scopes.every((name) => names.has(name))
                : nodes.some((n) => n.provider === "aws") && nodes.some((n) => n.provider === "azure");
              return synced ? nodes : undefined;
            },
            scopes ? 120_000 : 30_000,
          );
    return { server, sandbox, tenantId, db, members, hierarchy, dispose: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The administrator who deploys guardrails and the engineer who asks for waivers. */
export const ADMIN_AND_REQUESTER = {
  admin: { role: "ADMINISTRATOR", name: "Ada Admin" },
  requester: { role: "VISITOR", name: "Alice Engineer" },
} as const;
