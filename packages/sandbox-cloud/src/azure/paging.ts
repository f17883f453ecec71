import type { SandboxRequest, SandboxResponse } from "../http/types";
import { type ArmContext, armError, armOk } from "./arm-http";

/**
 * ARM lists answer a page at a time: `value` holds the page and `nextLink` (policy insights:
 * `@odata.nextLink`) the absolute URL of the next one, absent on the last page, with the position
 * in `$skiptoken`; for example
 * https://learn.microsoft.com/en-us/rest/api/managementgroups/management-groups/get-descendants,
 * https://learn.microsoft.com/en-us/rest/api/resources/resource-groups/list,
 * https://learn.microsoft.com/en-us/rest/api/monitor/activity-logs/list,
 * https://learn.microsoft.com/en-us/rest/api/policy/policy-states/next-link.
 * Page sizes differ by list and are not a contract, so a client must follow every link; the
 * sandbox pages every list at `limits.listPageSize` (small in tests) to make that visible. The
 * skip token is opaque to the client.
 */
export interface PageOptions {
  nextLinkName?: "nextLink" | "@odata.nextLink";
  /** The list's own largest page, when the service documents one (policy states: 1,000). */
  maxPageSize?: number;
  /** Records the whole query may return (OData `$top`), when the list takes one. */
  top?: number;
  /** Other members of the answer (`@odata.context`…), the count included when given. */
  extra?: (page: { total: number }) => Record<string, unknown>;
}

const TOKEN_PREFIX = "sbx1.";

export function armPage<T>(
  ctx: ArmContext,
  req: SandboxRequest,
  items: T[],
  options: PageOptions = {},
): SandboxResponse {
  const token = req.query.get("$skiptoken") ?? req.query.get("$skipToken");
  const start = token === null ? 0 : offsetOf(token);
  if (start === undefined || start > items.length) {
    return armError(400, "InvalidSkipToken", `The skip token '${token}' is not valid for this query.`);
  }
  const total = options.top === undefined ? items.length : Math.min(items.length, options.top);
  const size = Math.max(1, Math.min(ctx.limits.listPageSize, options.maxPageSize ?? Number.MAX_SAFE_INTEGER));
  const end = Math.min(total, start + size);
  const body: Record<string, unknown> = { ...options.extra?.({ total }), value: items.slice(start, end) };
  if (end < total) {
    const next = new URLSearchParams(req.query);
    next.delete("$skipToken");
    next.set("$skiptoken", `${TOKEN_PREFIX}${Buffer.from(String(end)).toString("base64url")}`);
    body[options.nextLinkName ?? "nextLink"] = `${ctx.baseUrl}${req.path}?${next}`;
  }
  return armOk(body);
}

function offsetOf(token: string): number | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const offset = Number(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString());
  return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
}
