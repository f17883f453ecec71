import type { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { queryOptions, useMutation } from "@tanstack/react-query";
import { createJsonClient } from "@/lib/connect-json";
import type { ResponseJson } from "@/lib/connect-json-types";

/** The invitation page is public and first-loaded by people new to Palisade: the small JSON client. */
const teamRpc = createJsonClient<typeof TeamService>("palisade.team.v1.TeamService");

export type InvitationLookupJson = ResponseJson<typeof TeamService, "getInvitationByToken">;

export function invitationByTokenQuery(token: string) {
  const input = { token };
  return queryOptions({
    queryKey: teamRpc.queryKey("getInvitationByToken", input),
    queryFn: ({ signal }) => teamRpc.call("getInvitationByToken", input, { signal }),
    // The state changes only when someone accepts or revokes; a second look after that is a reload.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useAcceptInvitationWithNewAccount(token: string) {
  return useMutation({
    mutationFn: (values: { name: string; password: string }) =>
      teamRpc.call("acceptInvitationWithNewAccount", { token, name: values.name, password: values.password }),
  });
}

export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: () => teamRpc.call("acceptInvitation", { token }),
  });
}
