import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export const MEMBERS_PAGE_SIZE = 30;

export function membersQuery(page = 1, search = "") {
  return {
    ...createQueryOptions(
      TeamService.method.listMembers,
      {
        pagination: { position: { case: "page", value: page }, limit: MEMBERS_PAGE_SIZE },
        ...(search ? { search } : {}),
      },
      { transport: appTransport },
    ),
    // The table keeps its rows while the next page or search loads instead of flashing empty.
    placeholderData: keepPreviousData,
  };
}

export function invitationsQuery() {
  return createQueryOptions(TeamService.method.listInvitations, {}, { transport: appTransport });
}

export function apiKeysQuery() {
  return createQueryOptions(TeamService.method.listApiKeys, {}, { transport: appTransport });
}

/** A membership changes the member list only. */
const changedByMembership = [TeamService.method.listMembers];

/** Invitations are listed apart from members until they are accepted. */
const changedByInvitation = [TeamService.method.listInvitations];

const changedByApiKey = [TeamService.method.listApiKeys];

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.changeRole, {
    onSuccess: () => invalidateMethods(queryClient, changedByMembership),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.removeMember, {
    onSuccess: () => invalidateMethods(queryClient, changedByMembership),
  });
}

export function useResetMemberMfa() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.resetMemberMfa, {
    onSuccess: () => invalidateMethods(queryClient, changedByMembership),
  });
}

/** Sign out everywhere: the member's sessions end; the list is unchanged until they sign in again. */
export function useRevokeMemberSessions() {
  return useMutation(TeamService.method.revokeMemberSessions);
}

/** Several addresses are invited one call each; the list is read again once, after the last. */
export function useInviteMember() {
  return useMutation(TeamService.method.inviteMember);
}

export function useRefreshInvitations() {
  const queryClient = useQueryClient();
  return () => invalidateMethods(queryClient, changedByInvitation);
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.revokeInvitation, {
    onSuccess: () => invalidateMethods(queryClient, changedByInvitation),
  });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.resendInvitation, {
    onSuccess: () => invalidateMethods(queryClient, changedByInvitation),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.createApiKey, {
    onSuccess: () => invalidateMethods(queryClient, changedByApiKey),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.revokeApiKey, {
    onSuccess: () => invalidateMethods(queryClient, changedByApiKey),
  });
}

export function useSetInstanceAdmin() {
  const queryClient = useQueryClient();
  return useMutation(TeamService.method.setInstanceAdmin, {
    onSuccess: () => invalidateMethods(queryClient, changedByMembership),
  });
}
