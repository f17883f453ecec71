import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetSignUpOptionsRequest,
  GetSignUpOptionsResponseSchema,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../auth/auth";
import type { AccountServiceDeps } from "../account-caller";

/** What the sign-in page needs to offer sign-up; nothing about any account or tenant. */
export async function getSignUpOptions(
  deps: AccountServiceDeps,
  _req: GetSignUpOptionsRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetSignUpOptionsResponseSchema>> {
  return {
    signUpAllowed: deps.allowSignUp,
    minPasswordLength: MIN_PASSWORD_LENGTH,
    maxPasswordLength: MAX_PASSWORD_LENGTH,
  };
}
