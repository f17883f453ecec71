import { LookupEventsCommand } from "@aws-sdk/client-cloudtrail";
import {
  DescribeOrganizationCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  type Root,
} from "@aws-sdk/client-organizations";
import type { ConnectionCheck } from "../cloud-provider";
import { runCheck, unreachableMessage } from "../connection-check";
import { errorCode, errorMessage } from "../errors";
import type { AwsClients } from "./aws-clients";
import { connectorAccountCheck } from "./aws-delegation";
import { SCP } from "./aws-scps";

/**
 * SCPs apply only in an organisation with all features, on a root where the SCP policy type is
 * enabled, as ListRoots reports it per root
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_Root.html; DescribeOrganization's
 * AvailablePolicyTypes is deprecated for this, https://docs.aws.amazon.com/organizations/latest/APIReference/API_Organization.html,
 * and FeatureSet is ALL or CONSOLIDATED_BILLING).
 */
export function scpsEnabledCheck(organisation: { featureSet?: string; roots: Root[] }): ConnectionCheck {
  const name = "Service control policies enabled";
  if (organisation.featureSet !== "ALL")
    return {
      name,
      ok: false,
      message: `The organisation has the feature set ${organisation.featureSet ?? "(none reported)"}; service control policies need all features. Enable all features in AWS Organizations (Settings).`,
    };
  const notEnabled = organisation.roots.filter(
    (root) => !root.PolicyTypes?.some((t) => t.Type === SCP && t.Status === "ENABLED"),
  );
  if (organisation.roots.length === 0 || notEnabled.length > 0) {
    const root = notEnabled[0];
    const status = root?.PolicyTypes?.find((t) => t.Type === SCP)?.Status;
    return {
      name,
      ok: false,
      message:
        status === "PENDING_ENABLE"
          ? `Service control policies are being enabled on root ${root?.Id}; test the connection again in a few minutes.`
          : `Service control policies are not enabled on root ${root?.Id ?? "(no root listed)"}. Enable the service control policy type in AWS Organizations (Policies > Service control policies).`,
    };
  }
  return { name, ok: true, message: "Service control policies are enabled on the organisation's root." };
}

/**
 * Tries each permission the connector needs, in the order a setup goes wrong, and says what to fix
 * in the terms of the AWS console.
 */
export async function verifyAwsConnection(
  clients: AwsClients,
  connection: {
    endpoint?: string;
    region: string;
    roleArn: string;
    managementAccountId: string;
    externalId: string;
    /** With an organisation trail, events do not come from LookupEvents. */
    trail?: unknown;
  },
): Promise<ConnectionCheck[]> {
  const { organizations, cloudtrail, call, renewSession } = clients;
  const where = connection.endpoint ?? `AWS (${connection.region})`;
  const roleAccountId = connection.roleArn.split(":")[4] ?? "";
  const unreachable = (error: unknown) => unreachableMessage(where, error);
  const missing = (action: string) => (error: unknown) =>
    unreachable(error) ??
    (/AccessDenied/.test(errorCode(error))
      ? `The role ${connection.roleArn} may not call ${action}. Attach the permissions policy from the setup instructions to the role.`
      : `${action} failed: ${errorMessage(error)}`);

  const assume = await runCheck(
    "Assume role",
    async () => {
      await renewSession();
      return `Assumed ${connection.roleArn}.`;
    },
    (error) =>
      unreachable(error) ??
      (/AccessDenied/.test(errorCode(error))
        ? `AssumeRole on ${connection.roleArn} was denied. Check that the role exists in account ${roleAccountId}, that its trust policy allows Palisade's principal, and that it requires exactly the external id ${connection.externalId}.`
        : errorCode(error) === "CredentialsProviderError"
          ? "The Palisade server has no AWS identity to call sts:AssumeRole with. Give it one (environment variables, instance profile, task role) that the role's trust policy names."
          : /InvalidClientTokenId|SignatureDoesNotMatch|UnrecognizedClient|ExpiredToken/.test(
                errorCode(error),
              )
            ? `Palisade's own AWS credentials were refused (${errorCode(error)}). Renew the server's AWS identity.`
            : `AssumeRole failed: ${errorMessage(error)}`),
  );
  if (!assume.ok) return [assume];
  const checks: ConnectionCheck[] = [assume];
  let organisation: { featureSet?: string; roots: Root[] } | undefined;
  checks.push(
    await runCheck(
      "Read the organisation",
      async () => {
        const org = await call(() => organizations.send(new DescribeOrganizationCommand({})));
        const master = org.Organization?.MasterAccountId;
        if (master && master !== connection.managementAccountId) {
          throw Object.assign(new Error("wrong account"), { code: "WrongAccount", master });
        }
        const roots = await call(() => organizations.send(new ListRootsCommand({})));
        organisation = { featureSet: org.Organization?.FeatureSet, roots: roots.Roots ?? [] };
        return `Organisation ${org.Organization?.Id ?? ""} with ${roots.Roots?.length ?? 0} root(s).`;
      },
      (error) =>
        errorCode(error) === "WrongAccount"
          ? `The organisation's management account is ${(error as { master: string }).master}, not ${connection.managementAccountId}. Check the management account id on the connector.`
          : errorCode(error) === "AWSOrganizationsNotInUseException"
            ? `Account ${connection.managementAccountId} is not part of an organisation. Enable AWS Organizations with all features.`
            : missing("organizations:DescribeOrganization and organizations:ListRoots")(error),
    ),
  );
  if (organisation) {
    checks.push(await connectorAccountCheck(clients, roleAccountId, connection.managementAccountId));
    checks.push(scpsEnabledCheck(organisation));
  }
  checks.push(
    await runCheck(
      "List service control policies",
      async () => {
        const out = await call(() =>
          organizations.send(new ListPoliciesCommand({ Filter: SCP, MaxResults: 20 })),
        );
        return `${out.Policies?.length ?? 0} SCP(s) readable.`;
      },
      missing("organizations:ListPolicies"),
    ),
  );
  if (connection.trail) return checks;
  checks.push(
    await runCheck(
      "Read CloudTrail events (management account only)",
      async () => {
        await call(() => cloudtrail.send(new LookupEventsCommand({ MaxResults: 1 })));
        return `LookupEvents answers the management account's own events in ${connection.region} only; name the organisation trail on the connector to see member accounts' denials in every region.`;
      },
      missing("cloudtrail:LookupEvents"),
    ),
  );
  return checks;
}
