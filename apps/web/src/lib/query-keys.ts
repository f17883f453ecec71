import type { DescMethodUnary } from "@bufbuild/protobuf";
import { createConnectQueryKey } from "@connectrpc/connect-query";
import type { QueryClient } from "@tanstack/react-query";

/** The connect-query key of every cached answer of one method, whatever its input. */
export function methodKey(schema: DescMethodUnary) {
  return createConnectQueryKey({ schema, cardinality: undefined });
}

/** Marks stale exactly the methods whose answers a change altered, and waits for those on screen. */
export async function invalidateMethods(
  queryClient: QueryClient,
  methods: readonly DescMethodUnary[],
): Promise<void> {
  await Promise.all(methods.map((schema) => queryClient.invalidateQueries({ queryKey: methodKey(schema) })));
}
