import { z } from "zod";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const name = z.string().trim().min(1, "Name is required").max(80, "Name must not exceed 80 characters");

export const awsConnectorSchema = z
  .object({
    name,
    managementAccountId: z
      .string()
      .trim()
      .regex(/^\d{12}$/, "Management account id is 12 digits"),
    roleArn: z
      .string()
      .trim()
      .regex(
        /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/,
        "Role ARN looks like arn:aws:iam::111122223333:role/Name",
      ),
    region: z
      .string()
      .trim()
      .regex(/^([a-z]{2}(-[a-z]+)+-\d{1,2})?$/, "Region looks like us-east-1"),
  })
  .refine((v) => v.roleArn.split(":")[4] === v.managementAccountId, {
    message: "The role must be in the management account",
    path: ["roleArn"],
  });

export type AwsConnectorValues = z.infer<typeof awsConnectorSchema>;

export const azureConnectorSchema = z
  .object({
    name,
    tenantId: z.string().trim().regex(GUID, "Tenant id is a GUID"),
    clientId: z.string().trim().regex(GUID, "Application (client) id is a GUID"),
    credentialType: z.enum(["secret", "certificate"]),
    clientSecret: z.string().max(1024, "Client secret must not exceed 1024 characters"),
    certificatePem: z.string().max(16384, "Certificate must not exceed 16384 characters"),
  })
  .refine((v) => v.credentialType !== "secret" || v.clientSecret.length > 0, {
    message: "Client secret is required",
    path: ["clientSecret"],
  })
  .refine((v) => v.credentialType !== "certificate" || /PRIVATE KEY/.test(v.certificatePem), {
    message: "Paste the PEM with the private key and the certificate",
    path: ["certificatePem"],
  });

export type AzureConnectorValues = z.infer<typeof azureConnectorSchema>;
