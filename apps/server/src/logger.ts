import pino from "pino";

/** Query parameters whose values are credentials (sign-in links, OAuth codes, signed URLs). */
const SECRET_QUERY_PARAMS =
  /^(token|code|secret|password|state|signature|x-amz-signature|x-amz-credential|sig)$/i;

/** The URL as it may appear in a log: secret query values replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of [...params.keys()]) {
    if (SECRET_QUERY_PARAMS.test(name)) params.set(name, "[redacted]");
  }
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

/** Structured logs. Credentials are redacted wherever a request or response is logged. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      serializers: {
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
      redact: {
        paths: ['res.headers["set-cookie"]', "*.password", "*.secret", "*.clientSecret", "*.token", "*.key"],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

export type Logger = ReturnType<typeof createLogger>;
