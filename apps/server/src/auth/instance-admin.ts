import { Code, ConnectError } from "@connectrpc/connect";
import type { Database } from "../db/database";
import type { Caller } from "../rpc/call-context";
import {
  countInstanceAdmins,
  findFirstAdministratorAnyTenant,
  findUserById,
  setInstanceAdmin,
} from "./user-repository";

/** Whether the caller is a person who is an instance administrator (API keys never are). */
export async function isInstanceAdmin(db: Database, caller: Caller): Promise<boolean> {
  if (caller.kind !== "user") return false;
  return Boolean((await findUserById(db, caller.id))?.instanceAdmin);
}

export async function requireInstanceAdmin(db: Database, caller: Caller, what: string): Promise<void> {
  if (!(await isInstanceAdmin(db, caller))) {
    throw new ConnectError(
      `Only an instance administrator can ${what}; ask one (the administrator who set Palisade up, or whoever they made one).`,
      Code.PermissionDenied,
    );
  }
}

/**
 * An instance always has an instance administrator: on an instance that has none yet (a new
 * one, or one set up before there were any), the first administrator of the oldest tenant.
 */
export async function ensureInstanceAdmin(db: Database): Promise<void> {
  if ((await countInstanceAdmins(db)) > 0) return;
  const userId = await findFirstAdministratorAnyTenant(db);
  if (userId) await setInstanceAdmin(db, userId, true);
}
