import type { ServiceImpl } from "@connectrpc/connect";

/** The handlers of one service of the contract, as boot/ registers them and idempotency wraps them. */
// biome-ignore lint/suspicious/noExplicitAny: implementations of differently typed services share one map
export type AnyServiceImpl = Partial<ServiceImpl<any>>;
