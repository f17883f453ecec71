import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import {
  adminQuery,
  databaseUrlOf,
  pgliteTemplate,
  postgresTemplate,
  type TemplatePlaces,
} from "./database-templates";

export type Engine = "pglite" | "postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Where the run's templates go, which each test database is copied from (see global-setup.ts);
     * none in a project without that set-up (packages/cli), whose databases migrate from empty.
     */
    databaseTemplates: TemplatePlaces | undefined;
  }
}

/** The engines to run integration tests on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * The engine for tests whose subject is how a cloud evaluates what Palisade wrote (SCP and RCP
 * statements, principal ARNs, the AWS CLI's errors): the database only stores the bundle, its
 * waivers and the denials read back as events, and that storing is proven on both engines by
 * deployments.test.ts, waivers.test.ts and events.test.ts.
 */
export const cloudEvaluationEngines: Engine[] = ["pglite"];

/**
 * The engine for tests whose subject is how a cloud behaves around what Palisade wrote (Azure's
 * propagation delay, a read the cloud refuses, an assignment or group removed out of band): the
 * database only keeps the connector's state, bundles and events, and that storing is proven on
 * both engines by connectors.test.ts, deployments.test.ts, waivers.test.ts, events.test.ts and
 * azure-waived-events.test.ts.
 */
export const cloudBehaviourEngines: Engine[] = ["pglite"];

/**
 * The engine for tests whose subject is an identity flow through Better Auth (a code or link by
 * e-mail or phone, an authenticator app, single sign-on, the password policy, Require MFA): the
 * database only keeps users, sessions, verifications and rate-limit windows, and that storing is
 * proven on both engines by accounts.test.ts (sign-up, reset links, limits, sessions),
 * member-sessions.test.ts (sessions and trusted devices), team.test.ts (members and
 * invitations) and authentication.test.ts.
 */
export const identityFlowEngines: Engine[] = ["pglite"];

/**
 * The engine for tests whose subject is the shape of a request or its answer (error codes, body
 * limits, Origin checks, gRPC framing): the calls they make store what tests of the same
 * services already store on both engines (deployments.test.ts, waivers.test.ts, team.test.ts,
 * and waiver-cloud-faults.test.ts for a cloud's refusal kept on a waiver).
 */
export const requestShapeEngines: Engine[] = ["pglite"];

/**
 * The engine for tests whose subject is how a message is delivered (SMTP answers, retries, the
 * outbox folder): the invitation it carries is stored as team.test.ts proves on both engines,
 * and the retries are jobs, whose queue jobs.test.ts proves on both.
 */
export const deliveryEngines: Engine[] = ["pglite"];

export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test, dropped afterwards: a copy of the run's migrated template
 * (see database-templates.ts), or with `empty` a database no migration has touched (for tests of
 * what the server does on an empty one).
 */
export async function createTestDatabase(
  engine: Engine,
  options: { empty?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "palisade-test-"));
  if (engine === "pglite") {
    const places = options.empty ? undefined : inject("databaseTemplates");
    const template = places && (await pgliteTemplate(places));
    if (template) cpSync(template, join(dataDir, "db"), { recursive: true });
    return {
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `palisade_test_${randomBytes(6).toString("hex")}`;
  const places = options.empty ? undefined : inject("databaseTemplates");
  const template = places && (await postgresTemplate(places, adminUrl));
  await adminQuery(
    adminUrl,
    template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
  );
  return {
    dataDir,
    databaseUrl: databaseUrlOf(adminUrl, name),
    async drop() {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
