import { type DescMethodUnary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import type { QueryClient } from "@tanstack/react-query";
import { bundleSummaryQuery } from "@/features/dashboard/api/dashboard-queries";
import { currentTenantQuery } from "@/lib/current-tenant";

/**
 * The reads a signed-in page shows its first screen from, by path, for the pages the server
 * renders (app-server.tsx): the caller's tenant and role, which every signed-in page needs, and the
 * page's own first data. The server reads them as the browser would have (the Connect GETs the
 * page's head preloads), renders the page with them and writes their answers into the page, and
 * the browser puts the same answers in its cache before it takes the page over.
 */
interface FirstRead {
  method: DescMethodUnary;
  query: () => { queryKey: readonly unknown[] };
}

const read = <M extends DescMethodUnary>(
  method: M,
  query: () => { queryKey: readonly unknown[] },
): FirstRead => ({
  method,
  query,
});

const FIRST_READS: Record<string, FirstRead[]> = {
  "/dashboard": [
    read(TenantService.method.getCurrent, currentTenantQuery),
    read(DeploymentManagerService.method.summaryBundle, bundleSummaryQuery),
  ],
};

/** A Connect procedure's name, as its path and the server's preloads name it: `package.Service/Method`. */
function procedureOf(method: DescMethodUnary): `${string}.${string}/${string}` {
  return `${method.parent.typeName}/${method.name}` as `${string}.${string}/${string}`;
}

/** The procedures of a page's first reads, or undefined for a page the server does not render. */
export function firstReadsOf(path: string): `${string}.${string}/${string}`[] | undefined {
  return FIRST_READS[path.length > 1 ? path.replace(/\/+$/, "") : path]?.map((r) => procedureOf(r.method));
}

/**
 * Puts a page's first reads (their JSON answers by procedure) in the query cache, as the page's own
 * queries would have; false, leaving the cache as it was, when an answer is missing or unreadable.
 */
export function seedFirstReads(
  queryClient: QueryClient,
  path: string,
  answers: Record<string, unknown>,
): boolean {
  const reads = FIRST_READS[path.length > 1 ? path.replace(/\/+$/, "") : path];
  if (!reads) return false;
  try {
    const decoded = reads.map((r) => {
      const answer = answers[procedureOf(r.method)];
      if (answer === undefined) throw new Error(`no answer for ${procedureOf(r.method)}`);
      return [
        r.query().queryKey,
        fromJson(r.method.output, answer as JsonValue, { ignoreUnknownFields: true }),
      ] as const;
    });
    for (const [key, data] of decoded) queryClient.setQueryData(key, data);
    return true;
  } catch {
    return false;
  }
}
