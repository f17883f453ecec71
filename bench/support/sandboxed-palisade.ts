import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import type { Engine } from "../../apps/server/test/support/test-database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "../../apps/server/test/support/test-server";

/**
 * Palisade as the integration tests start it, with the sandbox cloud in-process (activity off so
 * background calls do not disturb the figures), on its embedded database in a fresh folder or on
 * DATABASE_URL when set (`postgres`: a fresh database on TEST_DATABASE_URL), and the
 * administrator signed in. `server.stop()` removes what it made.
 */
export async function startSandboxedPalisade(
  engine: Engine = "pglite",
  env: Record<string, string> = {},
): Promise<{ server: TestServer; admin: Credentials }> {
  const server = await startTestServer(engine, {
    LOG_LEVEL: "error",
    PALISADE_SANDBOX: "true",
    SANDBOX_ACTIVITY: "false",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  try {
    const { token } = await server.palisade.auth.api.signInEmail({
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    return { server, admin: { kind: "bearer", token } };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Polls `read` every `intervalMs` until `done` holds, for at most `timeoutMs`. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const flatten = (nodes: HierarchyNode[]): HierarchyNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children)]);
