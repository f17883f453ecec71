import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  SignInRequesterRequest,
  SignInRequesterResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { deleteUser, findUserByEmail, insertUnverifiedUser } from "../../../auth/user-repository";
import { callContext } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAuditAs } from "../../audit/audit-api";
import { insertMember } from "../../tenant/tenant-api";
import { readRequesterEmail, requireRequesterDomain } from "../requester-access";
import { takeOrRefuse } from "../team-limits";
import type { TeamServiceDeps } from "../team-members";
import { findMemberByEmail } from "../team-repository";

/**
 * Signs a requester in with the code e-mailed to an address in a requester domain of the key's
 * tenant. An address without an account gets one (verified by the code); one that is not a
 * member of the tenant joins it as VISITOR, which may only request waivers.
 */
export async function signInRequester(
  deps: TeamServiceDeps,
  req: SignInRequesterRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SignInRequesterResponseSchema>> {
  const { db, auth } = deps;
  const email = readRequesterEmail(req.email);
  await takeOrRefuse([
    [deps.limits.requesterSignInPerClient, callContext(ctx).ip, "code attempts from this address"],
    [deps.limits.requesterSignInPerEmail, email, `code attempts for ${email}`],
  ]);
  const code = req.code.trim();
  if (!/^\d{6}$/.test(code)) throw codeProblem("Enter the 6-digit code from the e-mail.");
  const { tenantId } = await requireRequesterDomain(db, req.policyKey, email);

  // Better Auth signs in existing accounts only; a new address gets an account that the code
  // verifies, and loses it again if the code is refused.
  let createdUserId: string | undefined;
  if (!(await findUserByEmail(db, email))) {
    createdUserId = crypto.randomUUID();
    const name = email.slice(0, email.indexOf("@"));
    await insertUnverifiedUser(db, { id: createdUserId, name, email, now: new Date() }).catch(() => {
      createdUserId = undefined;
    });
  }
  let signIn: Awaited<ReturnType<typeof signInWithCode>>;
  try {
    signIn = await signInWithCode(deps, email, code);
  } catch (error) {
    if (createdUserId) await deleteUser(db, createdUserId);
    throw codeRefusal(error);
  }
  // An account with an authenticator app is asked for the app's code next, which this page
  // cannot ask: the code alone signs nothing in, and the requester is told where to sign in.
  if ("twoFactorRedirect" in signIn.response) throw secondFactorRequired();
  const user = signIn.response.user;

  const joined = !(await findMemberByEmail(db, tenantId, email));
  if (joined) {
    await db.transaction(async (tx) => {
      await insertMember(tx, { tenantId, userId: user.id, role: "VISITOR" });
      await recordAuditAs(
        tx,
        ctx,
        { tenantId, type: "user", id: user.id, name: user.name || email },
        {
          target: { type: "member", id: user.id, name: email },
          after: { email, role: "VISITOR", reason: "waiver requester domain" },
        },
      );
    });
  }
  await auth.api.setActiveOrganization({
    headers: new Headers({ authorization: `Bearer ${signIn.response.token}` }),
    body: { organizationId: tenantId },
  });
  for (const cookie of signIn.headers.getSetCookie()) ctx.responseHeader.append("set-cookie", cookie);
  return { joined };
}

function signInWithCode(deps: TeamServiceDeps, email: string, otp: string) {
  return deps.auth.api.signInEmailOTP({ body: { email, otp }, returnHeaders: true });
}

function secondFactorRequired(): ConnectError {
  return new ConnectError(
    "This account signs in with an authenticator app as well. Sign in on Palisade's sign-in page with the code and the app, then open this page again.",
    Code.FailedPrecondition,
  );
}

function codeProblem(message: string): ConnectError {
  return invalidArgument(message, [{ field: "code", message }]);
}

/** Better Auth's refusals of a code, in the page's words. */
function codeRefusal(error: unknown): ConnectError {
  const reason = (error as { body?: { code?: unknown } } | undefined)?.body?.code;
  switch (reason) {
    case "OTP_EXPIRED":
      return codeProblem("This code has expired. Ask for a new one.");
    case "TOO_MANY_ATTEMPTS":
      return codeProblem("Too many wrong codes. Ask for a new one.");
    case "INVALID_OTP":
      return codeProblem(
        "The code is not right, or it was already used. Check the e-mail or ask for a new one.",
      );
    default:
      return error instanceof ConnectError
        ? error
        : new ConnectError("Signing in with the code failed. Try again.", Code.Internal);
  }
}
