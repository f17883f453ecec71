import {
  AWS_REQUIRED_ACTIONS,
  awsPermissionsPolicy,
  delegationPolicy,
} from "../../cloud/aws/aws-permissions";
import { trailReaderPolicy } from "../../cloud/aws/aws-provider";
import { AZURE_REQUIRED_ROLES } from "../../cloud/azure/azure-provider";

export interface AwsSetup {
  palisadePrincipalArn: string;
  externalId: string;
  trustPolicyJson: string;
  permissionsPolicyJson: string;
  iamPermissions: string[];
  markdown: string;
}

const PRINCIPAL_PLACEHOLDER = "arn:aws:iam::<PALISADE_ACCOUNT_ID>:role/<PALISADE_SERVER_ROLE>";
const EXTERNAL_ID_PLACEHOLDER = "<EXTERNAL_ID_SHOWN_WHEN_THE_CONNECTOR_IS_CREATED>";

/** The role to create in the management account: trusted by Palisade's principal, with the external id. */
export function awsSetup(options: {
  principalArn: string | undefined;
  externalId: string | undefined;
}): AwsSetup {
  const principal = options.principalArn || PRINCIPAL_PLACEHOLDER;
  const externalId = options.externalId || EXTERNAL_ID_PLACEHOLDER;
  const trust = {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: principal },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "sts:ExternalId": externalId } },
      },
    ],
  };
  const permissions = awsPermissionsPolicy();
  const trustPolicyJson = JSON.stringify(trust, null, 2);
  const permissionsPolicyJson = JSON.stringify(permissions, null, 2);
  const principalNote = options.principalArn
    ? ""
    : " Replace the principal with the IAM role or user the Palisade server runs as (set `PALISADE_AWS_PRINCIPAL_ARN` on the server to show it here).";
  const externalIdNote = options.externalId
    ? ""
    : "\n   The external id is generated when you create the connector.";
  const markdown = `### Connect an AWS organisation

1. Choose the account the role lives in: the organisation's **management account**, or a member account that is **delegated administrator** for AWS Organizations policies (recommended: nothing else runs in the management account). For a delegated administrator, sign in to the management account and, in AWS Organizations → Settings → Delegated administrator for AWS Organizations, add this delegation policy (replace \`<DELEGATED_ACCOUNT_ID>\`):

\`\`\`json
${JSON.stringify(delegationPolicy("<DELEGATED_ACCOUNT_ID>"), null, 2)}
\`\`\`

   Either way, make sure service control policies are enabled (AWS Organizations → Policies).
2. Create an IAM role (for example \`PalisadeConnector\`) with the **trust policy** below.${principalNote}${externalIdNote}

\`\`\`json
${trustPolicyJson}
\`\`\`

3. Attach this **permissions policy** to the role. Palisade tags every SCP it creates \`palisade:managed = true\` and may update, delete, attach and detach only SCPs with that tag, never the organisation's other SCPs. The last statement lets it tag its own SCPs created before it tagged them; a sync tags them, after which you may remove that statement.

\`\`\`json
${permissionsPolicyJson}
\`\`\`

4. Events: Palisade reads the **organisation trail**'s log files in S3. In the account of the trail's bucket (typically the log-archive account) create a role (for example \`PalisadeTrailReader\`) trusted by the same principal, with this policy (drop the KMS statement if the trail does not use SSE-KMS):

\`\`\`json
${JSON.stringify(trailReaderPolicy("<TRAIL_BUCKET>", "<KEY_PREFIX>"), null, 2)}
\`\`\`

   Without a trail, Palisade reads CloudTrail LookupEvents: the management account's own events in one region, never a member account's denial.
5. Enter the management account id, the role ARN (in the management or the delegated administrator account) and the trail (bucket, key prefix, bucket region, reader role) in Palisade, then **Test connection**.
`;
  return {
    palisadePrincipalArn: options.principalArn ?? "",
    externalId: options.externalId ?? "",
    trustPolicyJson,
    permissionsPolicyJson,
    iamPermissions: [...AWS_REQUIRED_ACTIONS],
    markdown,
  };
}

export interface AzureSetup {
  roleAssignments: { roleName: string; scope: string; reason: string }[];
  markdown: string;
}

export function azureSetup(tenantId: string | undefined): AzureSetup {
  const scope = tenantId
    ? `/providers/Microsoft.Management/managementGroups/${tenantId}`
    : "/providers/Microsoft.Management/managementGroups/<TENANT_ID> (the Tenant Root Group)";
  const roleAssignments = AZURE_REQUIRED_ROLES.map((r) => ({
    roleName: r.roleName,
    scope,
    reason: r.reason,
  }));
  const markdown = `### Connect an Azure tenant

1. In Microsoft Entra ID, create an **app registration** for Palisade and note its application (client) id and the tenant id.
2. Add a **client secret** or upload a **certificate** to it (Certificates & secrets).
3. Assign these roles to the app's service principal at the **Tenant Root Group** (Management groups → Tenant Root Group → Access control):

${roleAssignments.map((r) => `- **${r.roleName}** — ${r.reason}`).join("\n")}

   Scope: \`${scope}\`
4. Enter the tenant id, client id and the secret or certificate in Palisade, then **Test connection**.
`;
  return { roleAssignments, markdown };
}

export const SANDBOX_MARKDOWN = `### Sandbox cloud

The sandbox is built into Palisade: a simulated AWS organisation and Azure tenant that enforce the guardrails you deploy. Nothing needs to be created; add the connector and sync it.
`;
