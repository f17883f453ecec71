import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type AccountSessionSchema,
  type SignInEventSchema,
  SignInMethod,
} from "@palisade/api/gen/palisade/account/v1/account_pb";
import type { SessionSummary } from "../../auth/session-repository";
import type { SignInEventRow } from "../../auth/sign-in-history-repository";
import { describeDevice } from "./device";

export function sessionMessage(
  row: SessionSummary,
  currentSessionId: string | undefined,
): MessageInitShape<typeof AccountSessionSchema> {
  return {
    id: row.id,
    device: describeDevice(row.userAgent),
    userAgent: row.userAgent ?? "",
    ipAddress: row.ipAddress ?? "",
    createdAt: timestampFromDate(row.createdAt),
    lastActiveAt: timestampFromDate(row.updatedAt),
    expiresAt: timestampFromDate(row.expiresAt),
    current: row.id === currentSessionId,
  };
}

const METHODS: Record<string, SignInMethod> = {
  password: SignInMethod.PASSWORD,
  "email-otp": SignInMethod.EMAIL_OTP,
  "email-verification": SignInMethod.EMAIL_VERIFICATION,
  "magic-link": SignInMethod.MAGIC_LINK,
  passkey: SignInMethod.PASSKEY,
  "phone-otp": SignInMethod.PHONE_OTP,
  authenticator: SignInMethod.AUTHENTICATOR,
  "backup-code": SignInMethod.BACKUP_CODE,
  "sso-oidc": SignInMethod.SSO_OIDC,
  "sso-saml": SignInMethod.SSO_SAML,
  social: SignInMethod.SOCIAL,
};

/** Why a sign-in was refused, as the account's owner reads it. */
const FAILURE_REASONS: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Wrong password",
  EMAIL_NOT_VERIFIED: "E-mail address not verified yet",
  INVALID_OTP: "Wrong code",
  OTP_EXPIRED: "Expired code",
  TOO_MANY_ATTEMPTS: "Too many wrong codes",
};

export function signInEventMessage(row: SignInEventRow): MessageInitShape<typeof SignInEventSchema> {
  return {
    id: row.id,
    occurredAt: timestampFromDate(row.occurredAt),
    method: METHODS[row.method] ?? SignInMethod.UNSPECIFIED,
    success: row.success,
    failureReason: row.success ? "" : (FAILURE_REASONS[row.failureReason ?? ""] ?? "Refused"),
    ipAddress: row.ipAddress ?? "",
    device: describeDevice(row.userAgent),
    provider: row.method === "social" ? (row.provider ?? "") : "",
  };
}
