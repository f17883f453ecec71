import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  type ApiKey,
  ApiKeySchema,
  InvitationSchema,
  InvitationStatus,
  type Member,
  MemberSchema,
  type TeamService,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import type { Auth } from "../../auth/auth";
import { parseRoleName, roleName } from "../../auth/roles";
import type { Database } from "../../db/database";
import { type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import {
  type ApiKeyRow,
  cancelInvitation,
  countAdministrators,
  deleteApiKey,
  deleteMember,
  findMember,
  findMemberByEmail,
  insertInvitation,
  listApiKeys,
  listMembers,
  listPendingInvitations,
  type MemberRow,
  updateMemberRole,
} from "./team-repository";

const INVITATION_DAYS = 7;
const MAX_SEARCH = 100;
const MAX_KEY_NAME = 64;
const MAX_KEY_DAYS = 365;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

function memberMessage(row: MemberRow): Member {
  return create(MemberSchema, {
    id: row.id,
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: parseRoleName(row.role) ?? Role.UNSPECIFIED,
    joinedAt: timestampFromDate(row.joinedAt),
  });
}

function apiKeyMessage(row: ApiKeyRow): ApiKey {
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

function requireBuiltInRole(role: Role): void {
  if (role === Role.UNSPECIFIED || Role[role] === undefined) {
    throw new ConnectError(
      "Choose a role: VISITOR, VIEWER, MODERATOR, EDITOR, ADMINISTRATOR or INTEGRATOR.",
      Code.InvalidArgument,
    );
  }
}

/** Invitations and API keys are made by a person, so that someone is accountable for them. */
function requireUser(caller: Caller, what: string): void {
  if (caller.kind !== "user") {
    throw new ConnectError(
      `${what} must be done by a signed-in user, not with an API key.`,
      Code.PermissionDenied,
    );
  }
}

export function createTeamService(deps: { db: Database; auth: Auth }): ServiceImpl<typeof TeamService> {
  const { db, auth } = deps;

  async function existingMember(caller: Caller, memberId: string): Promise<MemberRow> {
    const row = memberId ? await findMember(db, caller.tenantId, memberId) : undefined;
    if (!row) throw new ConnectError("No such member in this tenant.", Code.NotFound);
    return row;
  }

  /** An administrator may not demote or remove the tenant's last administrator. */
  async function keepAnAdministrator(caller: Caller, row: MemberRow, change: string): Promise<void> {
    if (row.role === "ADMINISTRATOR" && (await countAdministrators(db, caller.tenantId)) <= 1) {
      throw new ConnectError(
        `${row.name} is the last administrator of this tenant; make another member an administrator before you ${change}.`,
        Code.FailedPrecondition,
      );
    }
  }

  async function audit(
    ctx: HandlerContext,
    action: string,
    targetType: string,
    targetId: string,
    details = {},
  ) {
    await writeAudit(db, callContext(ctx), {
      action: `TeamService.${action}`,
      targetType,
      targetId,
      details,
    });
  }

  return {
    async listMembers(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const search = req.search?.trim();
      if (search && search.length > MAX_SEARCH) {
        throw new ConnectError(`Search must be at most ${MAX_SEARCH} characters.`, Code.InvalidArgument);
      }
      // A single character matches too much to be useful; it is ignored as on every list.
      const { rows, total } = await listMembers(
        db,
        caller.tenantId,
        window,
        search && search.length > 1 ? search : undefined,
      );
      return { items: rows.map(memberMessage), pagination: pageResponse(total, window) };
    },

    async changeRole(req, ctx) {
      const caller = requireCaller(ctx);
      requireBuiltInRole(req.role);
      const row = await existingMember(caller, req.memberId);
      if (req.role !== Role.ADMINISTRATOR) await keepAnAdministrator(caller, row, "change their role");
      await updateMemberRole(db, caller.tenantId, row.id, roleName(req.role));
      await audit(ctx, "ChangeRole", "member", row.id, { from: row.role, to: roleName(req.role) });
      return { member: memberMessage({ ...row, role: roleName(req.role) }) };
    },

    async removeMember(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existingMember(caller, req.memberId);
      await keepAnAdministrator(caller, row, "remove them");
      await deleteMember(db, caller.tenantId, row.id);
      await audit(ctx, "RemoveMember", "member", row.id, { email: row.email });
      return {};
    },

    async inviteMember(req, ctx) {
      const caller = requireCaller(ctx);
      requireUser(caller, "Inviting a member");
      const email = req.email.trim().toLowerCase();
      if (!EMAIL.test(email))
        throw new ConnectError(`"${req.email}" is not a valid email`, Code.InvalidArgument);
      requireBuiltInRole(req.role);
      if (await findMemberByEmail(db, caller.tenantId, email)) {
        throw new ConnectError(`${email} is already a member of this tenant.`, Code.AlreadyExists);
      }
      const now = new Date();
      const id = crypto.randomUUID();
      const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
      await insertInvitation(db, {
        id,
        organizationId: caller.tenantId,
        email,
        role: roleName(req.role),
        status: "pending",
        expiresAt,
        createdAt: now,
        inviterId: caller.id,
      });
      await audit(ctx, "InviteMember", "invitation", id, { email, role: roleName(req.role) });
      return {
        invitation: create(InvitationSchema, {
          id,
          email,
          role: req.role,
          invitedBy: caller.name,
          createdAt: timestampFromDate(now),
          expiresAt: timestampFromDate(expiresAt),
          status: InvitationStatus.PENDING,
        }),
      };
    },

    async listInvitations(_req, ctx) {
      const caller = requireCaller(ctx);
      const rows = await listPendingInvitations(db, caller.tenantId, new Date());
      return {
        invitations: rows.map((row) =>
          create(InvitationSchema, {
            id: row.id,
            email: row.email,
            role: parseRoleName(row.role) ?? Role.UNSPECIFIED,
            invitedBy: row.inviterName,
            createdAt: timestampFromDate(row.createdAt),
            expiresAt: timestampFromDate(row.expiresAt),
            status: InvitationStatus.PENDING,
          }),
        ),
      };
    },

    async revokeInvitation(req, ctx) {
      const caller = requireCaller(ctx);
      if (!req.id || !(await cancelInvitation(db, caller.tenantId, req.id))) {
        throw new ConnectError("No pending invitation with this id in this tenant.", Code.NotFound);
      }
      await audit(ctx, "RevokeInvitation", "invitation", req.id);
      return {};
    },

    async listApiKeys(_req, ctx) {
      const caller = requireCaller(ctx);
      return { items: (await listApiKeys(db, caller.tenantId)).map(apiKeyMessage) };
    },

    async createApiKey(req, ctx) {
      const caller = requireCaller(ctx);
      requireUser(caller, "Creating an API key");
      const name = req.name.trim();
      if (name.length < 1 || name.length > MAX_KEY_NAME) {
        throw new ConnectError(`API key name must be 1 to ${MAX_KEY_NAME} characters.`, Code.InvalidArgument);
      }
      requireBuiltInRole(req.role);
      const days = req.expiresInDays;
      if (days !== undefined && (days < 1 || days > MAX_KEY_DAYS)) {
        throw new ConnectError(`An API key expires after 1 to ${MAX_KEY_DAYS} days.`, Code.InvalidArgument);
      }
      const created = await auth.api.createApiKey({
        body: {
          organizationId: caller.tenantId,
          userId: caller.id,
          name,
          metadata: { role: roleName(req.role), createdBy: caller.id },
          ...(days !== undefined ? { expiresIn: days * 86_400 } : {}),
        },
      });
      const [row] = (await listApiKeys(db, caller.tenantId)).filter((k) => k.id === created.id);
      if (!row) throw new ConnectError("The API key was not stored.", Code.Internal);
      await audit(ctx, "CreateApiKey", "api_key", created.id, { name, role: roleName(req.role) });
      return { apiKey: apiKeyMessage(row), key: created.key };
    },

    async revokeApiKey(req, ctx) {
      const caller = requireCaller(ctx);
      if (!req.id || !(await deleteApiKey(db, caller.tenantId, req.id))) {
        throw new ConnectError("No API key with this id in this tenant.", Code.NotFound);
      }
      await audit(ctx, "RevokeApiKey", "api_key", req.id);
      return {};
    },
  };
}
