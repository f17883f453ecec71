import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  type ApiKey,
  ApiKeySchema,
  DeliveryStatus,
  type Invitation,
  InvitationSchema,
  InvitationStatus,
  type Member,
  MemberSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { parseRoleName } from "../../auth/roles";
import type { ApiKeyRow, InvitationRow, MemberRow } from "./team-repository";

export function memberMessage(row: MemberRow): Member {
  return create(MemberSchema, {
    id: row.id,
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: parseRoleName(row.role) ?? Role.UNSPECIFIED,
    joinedAt: timestampFromDate(row.joinedAt),
    instanceAdmin: row.instanceAdmin,
    lastSignInAt: row.lastSignInAt ? timestampFromDate(row.lastSignInAt) : undefined,
    signInMethods: row.signInMethods ?? [],
    passkeyCount: row.passkeyCount ?? 0,
    mfaEnabled: row.mfaEnabled,
  });
}

/** Only pending invitations are ever shown. */
export function invitationMessage(
  row: Pick<
    InvitationRow,
    "id" | "email" | "role" | "inviterName" | "createdAt" | "expiresAt" | "deliveryStatus" | "deliveryError"
  >,
): Invitation {
  return create(InvitationSchema, {
    id: row.id,
    email: row.email,
    role: parseRoleName(row.role) ?? Role.UNSPECIFIED,
    invitedBy: row.inviterName,
    createdAt: timestampFromDate(row.createdAt),
    expiresAt: timestampFromDate(row.expiresAt),
    status: InvitationStatus.PENDING,
    deliveryStatus: DELIVERY_STATUSES[row.deliveryStatus ?? ""] ?? DeliveryStatus.UNSPECIFIED,
    deliveryError: row.deliveryError ?? "",
  });
}

const DELIVERY_STATUSES: Record<string, DeliveryStatus> = {
  pending: DeliveryStatus.PENDING,
  sent: DeliveryStatus.SENT,
  failed: DeliveryStatus.FAILED,
};

export function apiKeyMessage(row: ApiKeyRow): ApiKey {
  const metadata = parseMetadata(row.metadata);
  return create(ApiKeySchema, {
    id: row.id,
    name: row.name ?? "",
    start: row.start ?? "",
    role: parseRoleName(metadata.role) ?? Role.UNSPECIFIED,
    createdAt: timestampFromDate(row.createdAt),
    expiresAt: row.expiresAt ? timestampFromDate(row.expiresAt) : undefined,
    lastUsedAt: row.lastRequest ? timestampFromDate(row.lastRequest) : undefined,
  });
}

function parseMetadata(raw: string | null): { role?: string } {
  if (!raw) return {};
  try {
    // Better Auth may store metadata JSON-encoded once or twice.
    const once = JSON.parse(raw) as unknown;
    const value = typeof once === "string" ? (JSON.parse(once) as unknown) : once;
    return value && typeof value === "object" ? (value as { role?: string }) : {};
  } catch {
    return {};
  }
}
