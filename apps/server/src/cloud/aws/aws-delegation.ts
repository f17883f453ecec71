import { DescribeResourcePolicyCommand } from "@aws-sdk/client-organizations";
import type { ConnectionCheck } from "../cloud-provider";
import { runCheck } from "../connection-check";
import { errorCode, errorMessage } from "../errors";
import type { AwsClients } from "./aws-clients";
import { DELEGATED_ACTIONS } from "./aws-permissions";

interface Statement {
  Effect?: string;
  Principal?: string | { AWS?: string | string[] };
  Action?: string | string[];
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const matches = (pattern: string, action: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
    "i",
  ).test(action);

/** The actions Palisade needs that the delegation policy does not allow the account. */
export function missingDelegatedActions(content: string, accountId: string): string[] {
  let statements: Statement[];
  try {
    statements = list((JSON.parse(content) as { Statement?: Statement | Statement[] }).Statement);
  } catch {
    return [...DELEGATED_ACTIONS];
  }
  const granted = statements
    .filter((s) => s.Effect === "Allow")
    .filter((s) => {
      const principal = s.Principal;
      const names =
        principal === "*" ? ["*"] : list(typeof principal === "object" ? principal.AWS : undefined);
      return names.some((p) => p === "*" || p === accountId || p === `arn:aws:iam::${accountId}:root`);
    })
    .flatMap((s) => list(s.Action));
  return DELEGATED_ACTIONS.filter((action) => !granted.some((p) => matches(p, action)));
}

/**
 * Where the connector's role lives: the management account, or a member account that the
 * management account's delegation policy makes delegated administrator for Organizations
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_delegate_policies.html);
 * for the latter, which of Palisade's actions the policy does not delegate.
 */
export async function connectorAccountCheck(
  { organizations, call }: AwsClients,
  roleAccountId: string,
  managementAccountId: string,
): Promise<ConnectionCheck> {
  const name = "Connector account";
  if (roleAccountId === managementAccountId)
    return { name, ok: true, message: `The role is in the management account ${managementAccountId}.` };
  return runCheck(
    name,
    async () => {
      const out = await call(() => organizations.send(new DescribeResourcePolicyCommand({})));
      const missing = missingDelegatedActions(out.ResourcePolicy?.Content ?? "", roleAccountId);
      if (missing.length > 0)
        throw Object.assign(new Error("not delegated"), { code: "NotDelegated", missing });
      return `The role is in account ${roleAccountId}, delegated administrator for AWS Organizations: the management account's delegation policy allows every call Palisade makes.`;
    },
    (error) => {
      const code = errorCode(error);
      if (code === "NotDelegated")
        return `The role is in account ${roleAccountId}, a delegated administrator, but the management account's delegation policy does not delegate ${(error as { missing: string[] }).missing.join(", ")} to it. Add them to the delegation policy (AWS Organizations > Settings, in the management account ${managementAccountId}); the setup instructions print it.`;
      if (code === "ResourcePolicyNotFoundException")
        return `The role is in account ${roleAccountId}, not the management account ${managementAccountId}, and the organisation has no delegation policy. In the management account, add the delegation policy from the setup instructions (AWS Organizations > Settings > Delegated administrator), or create the role in the management account.`;
      if (/AccessDenied/.test(code))
        return `The role is in account ${roleAccountId}, which is not a delegated administrator of the organisation (or the role may not call organizations:DescribeResourcePolicy). In the management account ${managementAccountId}, add the delegation policy from the setup instructions, and attach the permissions policy to the role.`;
      return `DescribeResourcePolicy failed: ${errorMessage(error)}`;
    },
  );
}
