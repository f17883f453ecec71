import type { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { productErrorCodeOf } from "@/lib/error-detail";
import { type ProductErrorText, productErrorText } from "@/lib/product-error-text";
import { RpcError } from "@/lib/rpc-error";

export type WaiverFailure =
  /** Any other refusal: the key could not be validated. */
  | { kind: "invalid-key"; productCode: ProductErrorCode }
  /** The server's explanation: the key's tenant does not let this user request waivers. */
  | { kind: "permission-denied"; message: string }
  /** A refusal with a product error code: what happened and what to do. */
  | { kind: "product"; productCode: ProductErrorCode; text: ProductErrorText };

/** What the waiver page does after a refused request: send the visitor to sign in, or explain. */
export function waiverFailureOf(error: unknown): WaiverFailure | { kind: "sign-in" } {
  if (error instanceof RpcError && error.code === "unauthenticated") return { kind: "sign-in" };
  if (error instanceof RpcError && error.code === "permission_denied") {
    return { kind: "permission-denied", message: error.message };
  }
  const productCode = productErrorCodeOf(error);
  const text = productErrorText(productCode);
  if (text) return { kind: "product", productCode, text };
  return { kind: "invalid-key", productCode };
}
