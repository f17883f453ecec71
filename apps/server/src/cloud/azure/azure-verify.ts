import type { ConnectionCheck } from "../cloud-provider";
import { runCheck, unreachableMessage } from "../connection-check";
import { errorCode, errorMessage, errorStatus, isUnreachable } from "../errors";
import type { AzureClients } from "./azure-clients";
import { subscriptionIds } from "./azure-hierarchy";

const ARM_SCOPE = "https://management.azure.com/.default";

/**
 * Signs in, then tries each role the app registration needs, and says what to assign where in the
 * terms of the Azure portal.
 */
export async function verifyAzureConnection(
  clients: AzureClients,
  connection: { tenantId: string; clientId: string; armEndpoint?: string; authorityHost?: string },
  rootGroup: string,
): Promise<ConnectionCheck[]> {
  const { credential, tenantPolicy, clientsFor, call, collect } = clients;
  const where = connection.armEndpoint ?? "Azure Resource Manager";
  function explain(action: string, role: string) {
    return (error: unknown): string => {
      const unreachable = unreachableMessage(where, error);
      if (unreachable) return unreachable;
      const status = errorStatus(error);
      if (status === 403 || errorCode(error) === "AuthorizationFailed")
        return `The app registration ${connection.clientId} may not ${action}. Assign it the "${role}" role at the tenant root management group.`;
      return `${action} failed: ${errorMessage(error)}`;
    };
  }

  const token = await runCheck(
    "Sign in to Entra ID",
    async () => {
      await credential.getToken(ARM_SCOPE);
      return `Signed in as application ${connection.clientId}.`;
    },
    (error) => {
      const text = errorMessage(error);
      if (isUnreachable(error))
        return `Cannot reach the sign-in endpoint ${connection.authorityHost ?? "login.microsoftonline.com"}: ${text}.`;
      if (/AADSTS7000215|AADSTS7000222|AADSTS700027/.test(text))
        return "The client secret or certificate was refused (wrong, expired or not uploaded to the app registration). Create a new secret and update the connector.";
      if (/AADSTS700016/.test(text))
        return `No application ${connection.clientId} in tenant ${connection.tenantId}. Check the application (client) id and tenant id.`;
      if (/AADSTS90002|AADSTS900023/.test(text))
        return `Tenant ${connection.tenantId} was not found. Check the tenant id.`;
      return `Sign-in failed: ${text}`;
    },
  );
  if (!token.ok) return [token];
  const checks: ConnectionCheck[] = [token];
  let firstSubscription: string | undefined;
  checks.push(
    await runCheck(
      "Read management groups",
      async () => {
        const ids = await subscriptionIds(clients, rootGroup);
        firstSubscription = ids[0];
        return `Tenant root group readable, ${ids.length} subscription(s) below it.`;
      },
      explain("read the management group hierarchy", "Management Group Reader"),
    ),
  );
  checks.push(
    await runCheck(
      "Read policy assignments",
      async () => {
        const items = await collect((settings) =>
          tenantPolicy.policyAssignments.listForManagementGroup(rootGroup).byPage(settings),
        );
        return `${items.length} assignment(s) at the tenant root group readable.`;
      },
      explain("read policy assignments", "Resource Policy Contributor"),
    ),
  );
  if (firstSubscription) {
    const subscriptionId = firstSubscription;
    checks.push(
      await runCheck(
        "Read the Activity Log",
        async () => {
          const since = new Date(Date.now() - 3_600_000).toISOString();
          const pages = clientsFor(subscriptionId)
            .monitor.activityLogs.list(`eventTimestamp ge '${since}'`)
            .byPage();
          await call(() => pages[Symbol.asyncIterator]().next());
          return `Activity Log of subscription ${subscriptionId} readable.`;
        },
        explain("read the Activity Log", "Reader"),
      ),
    );
  }
  return checks;
}
