import { useQuery } from "@tanstack/react-query";
import { getBundleByKey, getDefinitionBySlug } from "./waiver-rpc";

export function useBundleByKey(key: string) {
  return useQuery({
    queryKey: ["public", "bundle-by-key", key.toUpperCase()],
    queryFn: ({ signal }) => getBundleByKey(key, signal),
    enabled: key !== "",
  });
}

export function useDefinitionBySlug(slug: string | undefined) {
  return useQuery({
    queryKey: ["public", "definition-by-slug", slug],
    queryFn: ({ signal }) => getDefinitionBySlug(slug ?? "", signal),
    enabled: !!slug,
  });
}
