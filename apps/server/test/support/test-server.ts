import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { and, eq } from "drizzle-orm";
import type { DestinationStream } from "pino";
import { user } from "../../src/auth/auth-schema";
import { createPalisade, type Palisade } from "../../src/boot/app";
import { readConfig } from "../../src/boot/config";
import { createLogger } from "../../src/logger";
import { member, organization } from "../../src/modules/tenant/organization-schema";
import { createTestDatabase, type Engine, type TestDatabase } from "./test-database";

export const ADMIN_EMAIL = "admin@palisade.test";
export const ADMIN_PASSWORD = "correct horse battery staple";

/** How a test client presents itself to the server. */
export type Credentials =
  | { kind: "none" }
  | { kind: "bearer"; token: string }
  | { kind: "cookie"; cookie: string };

export interface TestServer {
  url: string;
  /** The server's DATA_DIR (embedded database, secrets, mail outbox). */
  dataDir: string;
  palisade: Palisade;
  defaultTenantId: string;
  /** A Connect client of the real server, through the Connect protocol over HTTP. */
  client<S extends DescService>(service: S, credentials?: Credentials): Client<S>;
  /** Signs up a user, makes them a member of the tenant with the role and signs them in. */
  addMember(options: { role: string; tenantId?: string; email?: string; name?: string }): Promise<{
    userId: string;
    memberId: string;
    credentials: Credentials;
    email: string;
    password: string;
  }>;
  createTenant(name: string): Promise<string>;
  createApiKey(options: { tenantId: string; role: string }): Promise<string>;
  signIn(email: string, password: string): Promise<Response>;
  stop(): Promise<void>;
}

let counter = 0;

/** Starts Palisade on an ephemeral port with a fresh database of the given engine. */
export async function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  /** Where the server's log goes (standard output by default). */
  log?: DestinationStream,
): Promise<TestServer> {
  const database: TestDatabase = await createTestDatabase(engine);
  const config = readConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    PALISADE_ADMIN_EMAIL: ADMIN_EMAIL,
    PALISADE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    WEB_DIST: "/nonexistent",
    LOG_LEVEL: "warn",
    PUBLIC_RATE_LIMIT_BURST: "100000",
    PUBLIC_RATE_LIMIT_PER_SECOND: "100000",
    // Tests that need the sandbox cloud ask for it.
    PALISADE_SANDBOX: "false",
    // Test servers run side by side: each sandbox on a port of its own.
    SANDBOX_PORT: "0",
    // Azure enforces policy changes minutes late; tests keep the delay short but never zero.
    SANDBOX_AZURE_PROPAGATION_SECONDS: "1",
    // The sandbox's organisation trail delivers about a second after a call: late, as CloudTrail's
    // files are, yet short enough for a test to wait for.
    SANDBOX_TRAIL_DELAY_SECONDS: "1",
    ...env,
  });
  const palisade = await createPalisade(config, createLogger(config.logLevel, log));
  await palisade.app.listen({ port: 0, host: "127.0.0.1" });
  const address = palisade.app.server.address();
  if (!address || typeof address === "string") throw new Error("server has no port");
  const url = `http://127.0.0.1:${address.port}`;
  const db = palisade.database.db;
  const [tenant] = await db.select().from(organization).where(eq(organization.slug, "default"));
  if (!tenant) throw new Error("bootstrap did not create the default tenant");

  const server: TestServer = {
    url,
    dataDir: config.dataDir,
    palisade,
    defaultTenantId: tenant.id,
    client(service, credentials = { kind: "none" }) {
      const withCredentials: Interceptor = (next) => (req) => {
        if (credentials.kind === "bearer") req.header.set("authorization", `Bearer ${credentials.token}`);
        if (credentials.kind === "cookie") {
          req.header.set("cookie", credentials.cookie);
          // As a browser on Palisade's own page would.
          req.header.set("origin", url);
        }
        return next(req);
      };
      return createClient(
        service,
        createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [withCredentials] }),
      );
    },
    async addMember({ role, tenantId = tenant.id, email, name }) {
      counter += 1;
      const address = email ?? `member-${counter}-${Date.now()}@palisade.test`;
      const password = `password-${counter}-long-enough`;
      const signUp = await palisade.auth.api.signUpEmail({
        body: { email: address, password, name: name ?? `Member ${counter}` },
      });
      // Password accounts sign in once their address is verified.
      await db.update(user).set({ emailVerified: true }).where(eq(user.id, signUp.user.id));
      const memberId = crypto.randomUUID();
      await db
        .insert(member)
        .values({ id: memberId, organizationId: tenantId, userId: signUp.user.id, role });
      const signIn = await palisade.auth.api.signInEmail({ body: { email: address, password } });
      return {
        userId: signUp.user.id,
        memberId,
        credentials: { kind: "bearer", token: signIn.token },
        email: address,
        password,
      };
    },
    async createTenant(name) {
      const id = crypto.randomUUID();
      await db
        .insert(organization)
        .values({ id, name, slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${id.slice(0, 8)}` });
      return id;
    },
    async createApiKey({ tenantId, role }) {
      // Better Auth lets an administrator of the tenant mint its keys.
      const [owner] = await db
        .select()
        .from(member)
        .where(and(eq(member.organizationId, tenantId), eq(member.role, "ADMINISTRATOR")))
        .limit(1);
      if (!owner) throw new Error("the tenant has no administrator to create an API key");
      const created = await palisade.auth.api.createApiKey({
        body: { organizationId: tenantId, userId: owner.userId, name: `${role} key`, metadata: { role } },
      });
      return created.key;
    },
    signIn(email, password) {
      return fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email, password }),
      });
    },
    async stop() {
      await palisade.close();
      await database.drop();
    },
  };
  return server;
}
