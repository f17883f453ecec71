import type { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { productErrorCodeOf } from "@/lib/error-detail";
import { RpcError } from "@/lib/rpc-error";

export type WaiverFailure =
  /** Any refusal other than a denied permission; the product error code goes to the log only (spec §8). */
  | { kind: "invalid-key"; productCode: ProductErrorCode }
  /** The server's explanation: the key's tenant does not let this user request waivers. */
  | { kind: "permission-denied"; message: string };

/** What the waiver page does after a refused request: send the visitor to sign in, or explain. */
export function waiverFailureOf(error: unknown): WaiverFailure | { kind: "sign-in" } {
  if (error instanceof RpcError && error.code === "unauthenticated") return { kind: "sign-in" };
  if (error instanceof RpcError && error.code === "permission_denied") {
    return { kind: "permission-denied", message: error.message };
  }
  return { kind: "invalid-key", productCode: productErrorCodeOf(error) };
}
