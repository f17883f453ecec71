/**
 * The one folder of src/ that writes each table (inserts, updates, deletes), by the table's SQL
 * name. Every other folder asks the owner through its functions; reads are not restricted. The
 * identity layer (Better Auth) also writes its own tables, through its adapter, as `auth/` wraps it.
 * Checked by test/table-ownership.test.ts.
 */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  // The identity layer's tables.
  user: "auth",
  session: "auth",
  account: "auth",
  verification: "auth",
  passkey: "auth",
  two_factor: "auth",
  sign_in_event: "auth",
  organization: "modules/tenant",
  member: "modules/tenant",
  invitation: "modules/team",
  apikey: "modules/team",
  sso_provider: "modules/sso",
  // Palisade's own.
  audit_log: "modules/audit",
  audit_chain_heads: "modules/audit",
  tenant_settings: "modules/tenant",
  tenant_sso: "modules/sso",
  tenant_sso_domain: "modules/sso",
  connectors: "modules/connector",
  hierarchy_nodes: "modules/connector",
  bundles: "modules/deployment",
  deployments: "modules/deployment",
  impact_previews: "modules/deployment",
  waivers: "modules/waiver",
  trail_files: "modules/event",
  policy_events: "modules/event",
  event_day_counts: "modules/event",
  resource_events: "modules/event",
  compliance_observations: "modules/event",
  event_principals: "modules/event",
  request_shapes: "modules/event",
  request_counts: "modules/event",
  notification_settings: "modules/notification",
  notification_deliveries: "modules/notification",
  chat_nonces: "modules/notification",
  export_chunks: "modules/export",
  policy_definitions: "modules/policy-definition",
  recommendations: "modules/recommendation",
  jobs: "jobs",
  idempotent_calls: "rpc",
  rate_limit_buckets: "rpc",
};
