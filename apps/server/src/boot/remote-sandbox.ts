import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import type { Logger } from "../logger";

/** A sandbox cloud running as its own process, reached at `url`. */
export interface RemoteSandbox {
  /** Its endpoints and credentials once it has answered; undefined until then. */
  current(): SandboxCloud | undefined;
  /** Waits up to `timeoutMs` for the first answer. */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

type Info = Omit<SandboxCloud, "close">;

/**
 * Reads the sandbox's endpoints and connector credentials from `GET /sandbox/info`, retrying
 * with backoff until it answers (it may start after the server). Endpoints are taken relative
 * to `url`, the address this server reaches it at.
 */
export function connectRemoteSandbox(url: string, logger: Logger): RemoteSandbox {
  const base = new URL(url);
  let info: SandboxCloud | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const waiters = new Set<() => void>();

  const rebase = (endpoint: string, secure: boolean) => {
    const target = new URL(endpoint);
    target.protocol = secure ? "https:" : "http:";
    target.hostname = base.hostname;
    target.port = base.port;
    return target.toString().replace(/\/$/, "");
  };

  async function load(delayMs: number): Promise<void> {
    if (stopped) return;
    try {
      const response = await fetch(new URL("/sandbox/info", base), { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as Info;
      info = {
        ...body,
        url: rebase(body.url, false),
        aws: { ...body.aws, endpoint: rebase(body.aws.endpoint, false) },
        azure: {
          ...body.azure,
          armEndpoint: rebase(body.azure.armEndpoint, true),
          authorityHost: rebase(body.azure.authorityHost, true),
        },
        close: async () => {},
      };
      logger.info({ component: "sandbox", url: info.url }, "connected to the sandbox cloud");
      for (const wake of waiters) wake();
      waiters.clear();
    } catch (error) {
      logger.warn(
        { component: "sandbox", url, err: (error as Error).message, retryInMs: delayMs },
        "sandbox cloud not reachable yet",
      );
      timer = setTimeout(() => void load(Math.min(delayMs * 2, 30_000)), delayMs);
      timer.unref();
    }
  }
  void load(500);

  return {
    current: () => info,
    async ready(timeoutMs) {
      if (info) return true;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(limit);
          resolve();
        };
        const limit = setTimeout(() => {
          waiters.delete(done);
          resolve();
        }, timeoutMs);
        waiters.add(done);
      });
      return info !== undefined;
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
