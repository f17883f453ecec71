import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  Order,
  type PaginationRequest,
  type PaginationResponse,
  PaginationResponseSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { PageWindow } from "../db/page-window";

export const DEFAULT_PAGE_SIZE = 30;

/**
 * Reads a page-number pagination request: pages start at 1, 30 items by default. The page size
 * (1 to 200) is a bound of the contract, checked before a handler runs.
 */
export function pageWindow(pagination: PaginationRequest | undefined): PageWindow {
  if (pagination?.position.case === "cursor") {
    throw new ConnectError("This list is paged by page number, not by cursor.", Code.InvalidArgument);
  }
  const page = pagination?.position.case === "page" ? Math.max(1, pagination.position.value) : 1;
  const requested = pagination?.limit ?? DEFAULT_PAGE_SIZE;
  return {
    page,
    limit: requested,
    offset: (page - 1) * requested,
    descending: pagination?.order !== Order.ASCENDING,
  };
}

export function pageResponse(totalItems: number, window: PageWindow): PaginationResponse {
  return create(PaginationResponseSchema, {
    position: { case: "totalPages", value: Math.ceil(totalItems / window.limit) },
    totalItems,
  });
}
