import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SendRequesterCodeRequest,
  SendRequesterCodeResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { SIGN_IN_CODE } from "../../../auth/auth";
import { enqueueMail } from "../../../jobs/send-mail-job";
import { signInCodeMail } from "../../../mail/mail-templates";
import { callContext } from "../../../rpc/call-context";
import { recordAuditAs } from "../../audit/audit-api";
import { readRequesterEmail, requireRequesterDomain } from "../requester-access";
import { takeOrRefuse } from "../team-limits";
import type { TeamServiceDeps } from "../team-members";

/**
 * E-mails a sign-in code to an address in a waiver requester domain of the key's tenant, whether
 * or not it has an account yet: the code is what proves the address.
 */
export async function sendRequesterCode(
  deps: TeamServiceDeps,
  req: SendRequesterCodeRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SendRequesterCodeResponseSchema>> {
  const email = readRequesterEmail(req.email);
  await takeOrRefuse([
    [deps.limits.requesterCodePerClient, callContext(ctx).ip, "code requests from this address"],
    [deps.limits.requesterCodePerEmail, email, `codes sent to ${email}`],
  ]);
  const { tenantId } = await requireRequesterDomain(deps.db, req.policyKey, email);
  // Stored hashed by Better Auth's e-mail OTP, valid ten minutes, five tries: the sign-in page's code.
  const code = await deps.auth.api.createVerificationOTP({ body: { email, type: "sign-in" } });
  await enqueueMail(deps.jobs, {
    message: signInCodeMail({
      to: email,
      code,
      validMinutes: SIGN_IN_CODE.validSeconds / 60,
      enterOn: "the waiver request page",
    }),
    link: `${deps.publicUrl}/req`,
  });
  // A sign-in security event of the tenant the requester would join; never the code.
  await deps.db.transaction((tx) =>
    recordAuditAs(
      tx,
      ctx,
      { tenantId, type: "anonymous", name: email },
      {
        target: { type: "requester", id: email, name: email },
        after: { codeSent: true, policyKey: req.policyKey },
      },
    ),
  );
  return {};
}
