import { type DescMethodUnary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import type { ConnectProcedure } from "@palisade/api/connect-get";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import type { QueryClient } from "@tanstack/react-query";
import { bundleSummaryQuery } from "@/features/dashboard/api/dashboard-queries";
import { currentTenantQuery } from "@/lib/current-tenant";
import { pagePath } from "@/lib/page-path";

/**
 * The reads a signed-in page shows its first screen from, by path, for the pages the server
 * renders (app-server.tsx): the caller's tenant and role, which every signed-in page needs, and the
 * page's own first data. The server reads them as the browser would have (the Connect GETs the
 * page's head preloads), renders the page with them and writes their answers into the page, and
 * the browser puts the same answers in its cache before it takes the page over.
 */
interface FirstRead {
  method: DescMethodUnary;
  /** The page's own query for the read, whose cache entry the answer fills. */
  query: () => { queryKey: readonly unknown[] };
}

const FIRST_READS: Record<string, FirstRead[]> = {
  "/dashboard": [
    { method: TenantService.method.getCurrent, query: currentTenantQuery },
    { method: DeploymentManagerService.method.summaryBundle, query: bundleSummaryQuery },
  ],
};

/** A Connect procedure's name, as its path and the server's preloads name it: `package.Service/Method`. */
function procedureOf(method: DescMethodUnary): ConnectProcedure {
  return `${method.parent.typeName}/${method.name}` as ConnectProcedure;
}

/** The procedures of a page's first reads, or undefined for a page the server does not render. */
export function firstReadsOf(path: string): ConnectProcedure[] | undefined {
  return FIRST_READS[pagePath(path)]?.map((read) => procedureOf(read.method));
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
  const reads = FIRST_READS[pagePath(path)];
  if (!reads || reads.some((read) => answers[procedureOf(read.method)] === undefined)) return false;
  let decoded: [readonly unknown[], unknown][];
  try {
    decoded = reads.map((read) => [
      read.query().queryKey,
      fromJson(read.method.output, answers[procedureOf(read.method)] as JsonValue, {
        ignoreUnknownFields: true,
      }),
    ]);
  } catch {
    return false;
  }
  for (const [key, data] of decoded) queryClient.setQueryData(key, data);
  return true;
}
