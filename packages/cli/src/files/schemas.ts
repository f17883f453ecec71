import { z } from "zod";

// The file format of guardrails as code (docs/as-code.md): one YAML document per file, each with
// a `kind`. The JSON Schema in schema/ is generated from these (npm run -w @palisade/cli schema).

const text = (max: number) => z.string().trim().min(1).max(max);
/** A scope id; an unquoted AWS account id reads as a number in YAML (and loses leading zeros). */
const scopeId = z
  .string({ error: 'must be text: quote an account id ("012345678901").' })
  .trim()
  .min(1)
  .max(2048);

export const bundleFileSchema = z
  .strictObject({
    kind: z.literal("Bundle"),
    name: text(120).describe("The bundle's name, unique in the folder; 1 to 120 characters."),
    policy: text(128).describe("The catalogue slug of the policy, e.g. storage-accounts-https-only."),
    mode: z.enum(["prevent", "alert"]).describe("prevent denies; alert only reports."),
    scopes: z
      .array(scopeId)
      .min(1)
      .max(100)
      .describe(
        "Where it applies: AWS root (r-…), OU (ou-…) or 12-digit account id; Azure /providers/Microsoft.Management/managementGroups/<id>, /subscriptions/<id> or /subscriptions/<id>/resourceGroups/<name>.",
      ),
    excluded_scopes: z.array(scopeId).max(100).optional().describe("Scopes below `scopes` it skips."),
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The policy's parameters by name; missing ones take the catalogue's defaults."),
    visible: z.boolean().optional().describe("Whether requesters see it on the waiver page (default true)."),
    namespace: z.string().trim().max(64).optional().describe("A free grouping label, at most 64 characters."),
    waiver_approval: z
      .enum(["auto", "manual", "tenant-default"])
      .optional()
      .describe("How waiver requests are approved; tenant-default (or absent) follows the tenant."),
  })
  .describe("A policy deployed in one mode to a set of scopes.");

export const waiverFileSchema = z
  .strictObject({
    kind: z.literal("Waiver"),
    bundle: text(120).describe("The name of the bundle it exempts from (a Bundle file of the folder)."),
    scope: text(2048)
      .optional()
      .describe("An account, OU, subscription, resource group or management group."),
    principal: text(2048).optional().describe("An AWS principal ARN the deny no longer applies to."),
    resource: text(2048).optional().describe("A single resource (ARN or Azure resource id)."),
    requester: z.strictObject({
      name: text(200),
      email: text(254).describe("Must not be the owner of the API key that applies the file."),
    }),
    reason: text(2200).describe(
      "Why the waiver is granted (at most 220 characters as a person counts them).",
    ),
    ticket: z.string().trim().max(128).optional().describe("Change or incident ticket, e.g. CHG-1234."),
    expires: z
      .string()
      .trim()
      .min(1)
      .describe("When it ends (ISO 8601 with a time zone); at most the tenant's maximum from now."),
  })
  .describe("A pre-approved waiver: active from apply until it expires.");

const approvalMode = z.enum(["auto", "manual"]);

export const tenantSettingsFileSchema = z
  .strictObject({
    kind: z.literal("TenantSettings"),
    default_waiver_approval: approvalMode.optional(),
    max_waiver_duration_hours: z.number().int().min(1).max(72).optional(),
    waiver_link_base_url: z.string().max(512).optional(),
    require_separate_approver: z.boolean().optional(),
    event_retention_days: z.number().int().min(1).max(3650).optional(),
    waiver_requester_domains: z.array(text(253)).max(50).optional(),
    require_mfa: z.boolean().optional(),
  })
  .describe("The tenant's settings; fields left out keep their value.");

export const notificationSettingsFileSchema = z
  .strictObject({
    kind: z.literal("NotificationSettings"),
    events: z
      .strictObject({
        waiver_pending: z.boolean(),
        waiver_decided: z.boolean(),
        waiver_expiring: z.boolean(),
        deployment_failed: z.boolean(),
      })
      .optional(),
    email: z.boolean().optional(),
    slack: z.boolean().optional(),
    teams: z.boolean().optional(),
  })
  .describe("What the tenant is told about and on which channels; webhooks and secrets stay on the server.");

export const fileSchemas = {
  Bundle: bundleFileSchema,
  Waiver: waiverFileSchema,
  TenantSettings: tenantSettingsFileSchema,
  NotificationSettings: notificationSettingsFileSchema,
} as const;

export type Kind = keyof typeof fileSchemas;
export type BundleFile = z.infer<typeof bundleFileSchema>;
export type WaiverFile = z.infer<typeof waiverFileSchema>;
export type TenantSettingsFile = z.infer<typeof tenantSettingsFileSchema>;
export type NotificationSettingsFile = z.infer<typeof notificationSettingsFileSchema>;

/** The JSON Schema editors use for the files (schema/palisade.schema.json). */
export function filesJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://palisade.dev/schema/palisade.schema.json",
    title: "Palisade guardrails as code",
    oneOf: Object.values(fileSchemas).map((schema) => {
      const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
      return rest;
    }),
  };
}
