import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export const HISTORY_PAGE_SIZE = 20;

export function sessionsQuery() {
  return createQueryOptions(AccountService.method.listSessions, {}, { transport: appTransport });
}

export function signInHistoryQuery(page = 1) {
  return {
    ...createQueryOptions(
      AccountService.method.listSignInHistory,
      { pagination: { position: { case: "page", value: page }, limit: HISTORY_PAGE_SIZE } },
      { transport: appTransport },
    ),
    placeholderData: keepPreviousData,
  };
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation(AccountService.method.revokeSession, {
    onSuccess: () => invalidateMethods(queryClient, [AccountService.method.listSessions]),
  });
}

/** Logout-all: this session ends too, so nothing is read again. */
export function useRevokeAllSessions() {
  return useMutation(AccountService.method.revokeAllSessions);
}
