import type { DescService } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { UsageError } from "../usage";

/** Where the server is and the API key to call it with, from PALISADE_URL and PALISADE_API_KEY. */
export interface Connection {
  url: string;
  apiKey: string;
}

export function connectionFromEnv(env: NodeJS.ProcessEnv): Connection {
  const url = env.PALISADE_URL?.trim() ?? "";
  const apiKey = env.PALISADE_API_KEY?.trim() ?? "";
  if (!url)
    throw new UsageError(
      "PALISADE_URL is not set: export the server's address, e.g. PALISADE_URL=http://localhost:8080.",
    );
  if (!/^https?:\/\//.test(url))
    throw new UsageError(`PALISADE_URL must start with http:// or https:// (got ${url}).`);
  if (!apiKey)
    throw new UsageError(
      "PALISADE_API_KEY is not set: create an API key on the Team members page and export it.",
    );
  return { url: url.replace(/\/+$/, ""), apiKey };
}

export type ClientFactory = <S extends DescService>(service: S) => Client<S>;

/** Connect clients of the server (Connect protocol over HTTP/1.1), authenticated by the API key. */
export function clientFactory(connection: Connection): ClientFactory {
  const bearer: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${connection.apiKey}`);
    req.header.set("user-agent", "palisade-cli");
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: connection.url,
    httpVersion: "1.1",
    interceptors: [bearer],
    defaultTimeoutMs: 120_000,
  });
  return (service) => createClient(service, transport);
}

const HINTS: Partial<Record<Code, string>> = {
  [Code.Unauthenticated]: "Check PALISADE_API_KEY: the key may be revoked or expired.",
  [Code.PermissionDenied]: "Use an API key whose role grants the permission named (Team members → API keys).",
  [Code.Unavailable]: "Check PALISADE_URL and that the server is running, then try again.",
  [Code.ResourceExhausted]: "Wait a moment and try again.",
  [Code.DeadlineExceeded]: "The server took too long; try again.",
};

/** The code name as Connect spells it on the wire (permission_denied). */
export function codeName(code: Code): string {
  return Code[code].replace(/[A-Z]/g, (c, i) => (i ? "_" : "") + c.toLowerCase());
}

/** A failed call in words: the code, the server's sentence, the fields at fault, what to do. */
export function describeCallError(error: unknown): string {
  if (!(error instanceof ConnectError)) return error instanceof Error ? error.message : String(error);
  const failure = error;
  const lines = [`${codeName(failure.code)}: ${failure.rawMessage}`];
  for (const detail of failure.findDetails(ErrorDetailSchema)) {
    for (const violation of detail.fieldViolations) lines.push(`  ${violation.field}: ${violation.message}`);
  }
  const cause = failure.cause as { code?: string } | undefined;
  if (failure.code === Code.Unavailable && cause?.code === "ECONNREFUSED")
    lines[0] = `unavailable: nothing answers at the server's address (connection refused).`;
  const hint = HINTS[failure.code];
  if (hint) lines.push(hint);
  return lines.join("\n");
}
