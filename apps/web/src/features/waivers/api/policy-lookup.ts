import { useQuery } from "@tanstack/react-query";
import { retryDelay } from "@/lib/query-client";
import { RpcError } from "@/lib/rpc-error";
import { getBundleByKey, getDefinitionBySlug } from "./waiver-rpc";

const finalCodes = new Set(["not_found", "invalid_argument", "resource_exhausted", "unimplemented"]);

/** A key or slug the server does not know will not appear by asking again. */
function retryUnlessFinal(failures: number, error: unknown): boolean {
  if (error instanceof RpcError && finalCodes.has(error.code)) return false;
  return failures < 2;
}

export function useBundleByKey(key: string) {
  return useQuery({
    queryKey: ["public", "bundle-by-key", key.toUpperCase()],
    queryFn: ({ signal }) => getBundleByKey(key, signal),
    enabled: key !== "",
    retry: retryUnlessFinal,
    retryDelay,
  });
}

export function useDefinitionBySlug(slug: string | undefined) {
  return useQuery({
    queryKey: ["public", "definition-by-slug", slug],
    queryFn: ({ signal }) => getDefinitionBySlug(slug ?? "", signal),
    enabled: !!slug,
    retry: retryUnlessFinal,
    retryDelay,
  });
}
