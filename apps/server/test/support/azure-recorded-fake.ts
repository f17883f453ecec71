import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadOrCreateTls } from "@palisade/sandbox-cloud/http/self-signed";

/**
 * A stand-in for Entra ID and Azure Resource Manager that replays recorded answers, written from
 * Microsoft's REST documentation (not from the sandbox): the client-credentials token of the
 * Microsoft identity platform
 * (https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-client-creds-grant-flow),
 * and ARM lists as pages of `value` with an absolute `nextLink` carrying `$skiptoken`
 * (policy insights: `@odata.nextLink`, requested with POST,
 * https://learn.microsoft.com/en-us/rest/api/policy/policy-states/next-link).
 */
export interface RecordedList {
  method: "GET" | "POST";
  /** The request path, without the query. */
  path: string;
  /** The `$filter` the request must carry, when the list was recorded for one. */
  filter?: string;
  nextLinkName?: "nextLink" | "@odata.nextLink";
  pages: unknown[][];
}

export interface RecordedFake {
  armEndpoint: string;
  authorityHost: string;
  caCertPem: string;
  tenantId: string;
  /** Requests answered, 429s included. */
  readonly requests: string[];
  readonly throttled: number;
  /** Pages of a list served (not counting the 429 before each). */
  readonly pagesServed: number;
  close(): Promise<void>;
}

export async function startRecordedFake(options: {
  tenantId: string;
  lists: RecordedList[];
  /** Single resources: GET path → body. */
  resources: Record<string, unknown>;
  /** Every distinct request (each page of each list) is first refused with 429 and this Retry-After. */
  throttleEachRequestOnceSeconds?: number;
  /** Requests (method and path contain this text) refused with 429 every time. */
  alwaysThrottle?: string;
}): Promise<RecordedFake> {
  const dir = mkdtempSync(join(tmpdir(), "palisade-recorded-"));
  const tls = await loadOrCreateTls(dir, ["127.0.0.1"]);
  const requests: string[] = [];
  const seen = new Set<string>();
  let throttled = 0;
  let pagesServed = 0;
  let base = "";

  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const method = req.method ?? "GET";
      requests.push(`${method} ${url.pathname}${url.search}`);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
        res.end(JSON.stringify(payload));
      };
      const identity = identityAnswer(options.tenantId, base, method, url.pathname, body);
      if (identity) return send(200, identity);
      if (!req.headers.authorization?.startsWith("Bearer ")) {
        return send(401, {
          error: {
            code: "AuthenticationFailed",
            message: "Authentication failed. The 'Authorization' header is missing.",
          },
        });
      }
      const key = `${method} ${url.pathname.toLowerCase()} ${url.searchParams.get("$skiptoken") ?? ""}`;
      const always = options.alwaysThrottle && `${method} ${url.pathname}`.includes(options.alwaysThrottle);
      const once = options.throttleEachRequestOnceSeconds !== undefined && !seen.has(key);
      if (always || once) {
        seen.add(key);
        throttled += 1;
        return send(
          429,
          {
            error: {
              code: "TooManyRequests",
              message: "The request is being throttled as the limit has been reached for operation type.",
            },
          },
          { "retry-after": String(options.throttleEachRequestOnceSeconds ?? 1) },
        );
      }
      const list = options.lists.find(
        (l) =>
          l.path.toLowerCase() === url.pathname.toLowerCase() &&
          (l.filter === undefined || url.searchParams.get("$filter") === l.filter),
      );
      if (list) {
        if (method !== list.method) {
          return send(405, {
            error: {
              code: "HttpMethodNotSupported",
              message: `The http method '${method}' is not supported for '${url.pathname.split("/").at(-1)}'.`,
            },
          });
        }
        const index = Number(url.searchParams.get("$skiptoken")?.replace("recorded-", "") ?? 0);
        const page = list.pages[index];
        if (!page)
          return send(400, { error: { code: "InvalidSkipToken", message: "The skip token is not valid." } });
        pagesServed += 1;
        const answer: Record<string, unknown> = { value: page };
        if (index + 1 < list.pages.length) {
          const next = new URL(url);
          next.searchParams.set("$skiptoken", `recorded-${index + 1}`);
          answer[list.nextLinkName ?? "nextLink"] = next.toString();
        }
        return send(200, answer);
      }
      const resource = options.resources[url.pathname.toLowerCase()];
      if (resource && method === "GET") return send(200, resource);
      return send(404, {
        error: { code: "NotFound", message: `Nothing recorded for ${method} ${url.pathname}.` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the recorded fake has no port");
  base = `https://127.0.0.1:${address.port}`;
  return {
    armEndpoint: base,
    authorityHost: base,
    caCertPem: tls.caCertPem,
    tenantId: options.tenantId,
    requests,
    get throttled() {
      return throttled;
    },
    get pagesServed() {
      return pagesServed;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The OpenID configuration and client-credentials token of the Microsoft identity platform. */
function identityAnswer(
  tenantId: string,
  base: string,
  method: string,
  path: string,
  body: string,
): unknown | undefined {
  const authority = `${base}/${tenantId}`;
  if (method === "GET" && path === `/${tenantId}/v2.0/.well-known/openid-configuration`) {
    return {
      token_endpoint: `${authority}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
      jwks_uri: `${authority}/discovery/v2.0/keys`,
      response_modes_supported: ["query", "fragment", "form_post"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      issuer: `${authority}/v2.0`,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      tenant_region_scope: "EU",
      cloud_instance_name: "microsoftonline.com",
    };
  }
  if (method === "POST" && path === `/${tenantId}/oauth2/v2.0/token`) {
    if (new URLSearchParams(body).get("grant_type") !== "client_credentials") return undefined;
    return {
      token_type: "Bearer",
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: "recorded.access.token",
    };
  }
  return undefined;
}
