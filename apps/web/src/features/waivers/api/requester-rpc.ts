import type { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { createJsonClient } from "@/lib/connect-json";

/** The e-mail code of a signed-out requester, over the public page's JSON client (see palisade.team.v1). */
const teamRpc = createJsonClient<typeof TeamService>("palisade.team.v1.TeamService");

export function sendRequesterCode(email: string, policyKey: string) {
  return teamRpc.call("sendRequesterCode", { email, policyKey });
}

export function signInRequester(email: string, policyKey: string, code: string) {
  return teamRpc.call("signInRequester", { email, policyKey, code });
}
