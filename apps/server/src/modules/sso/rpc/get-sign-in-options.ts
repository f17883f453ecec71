import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetSignInOptionsRequest,
  GetSignInOptionsResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { signInProviders } from "../../../auth/social-auth";
import type { SsoServiceDeps } from "../sso-settings";

/** Public: the social sign-in buttons of this instance; no secret, nothing about tenants. */
export async function getSignInOptions(
  deps: SsoServiceDeps,
  _req: GetSignInOptionsRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetSignInOptionsResponseSchema>> {
  const config = deps.socialSignIn;
  return {
    providers: signInProviders(config),
    googleOneTapClientId: config.googleOneTap ? (config.providers.google?.clientId ?? "") : "",
  };
}
