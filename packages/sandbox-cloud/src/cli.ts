import { resolve } from "node:path";
import { DEFAULT_ACTIVITY_LOG_LAG_MS } from "./azure/activity-log";
import {
  HelpRequested,
  integerOption,
  parseOptions,
  positiveOption,
  runCommandLine,
  UsageError,
} from "./cli-args";
import { AZURE_POLICY_PROPAGATION_SECONDS } from "./enforce/propagation";
import { CLOUDTRAIL_LOOKUPS_PER_SECOND, DEFAULT_SEED, startSandboxCloud } from "./start-sandbox-cloud";
import { DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS } from "./state/seed-trail";
import { MAX_AUDIT_RECORDS } from "./state/store";

const USAGE = `Usage:
  npm run sandbox [-- serve] [options]   start the sandbox cloud
  npm run sandbox -- try [options]       ask the sandbox whether an action is allowed
  npm run sandbox -- help [serve|try]    this help, or a command's

Run a command with --help for its options.`;

const SERVE_USAGE = `Usage: npm run sandbox [-- serve] [options]

Starts the sandbox cloud (AWS Organizations, STS, CloudTrail, S3; Azure ARM).

Options:
  --port N          port (default SANDBOX_PORT or 4510)
  --host H          address to listen on (default SANDBOX_HOST or 127.0.0.1)
  --data-dir DIR    state folder (default SANDBOX_DATA_DIR or ./.palisade/sandbox)
  --seed N          seed of the simulated organisation (default SANDBOX_SEED)
  --no-activity     no simulated cloud users
  --rate N          simulated actions per minute (default SANDBOX_ACTIVITY_RATE or 12)
  --lookups-per-second N
                    CloudTrail LookupEvents calls per second clients pace themselves to
                    (default SANDBOX_CLOUDTRAIL_LOOKUPS_PER_SECOND or 2, as AWS)
  --trail-delay S   average seconds before the organisation trail delivers a call's log
                    file (default SANDBOX_TRAIL_DELAY_SECONDS or 300, AWS's about 5 minutes)
  --audit-records N records kept in each audit stream, newest first
                    (default SANDBOX_AUDIT_RECORDS or 20000)
  --activity-log-lag-seconds N
                    the most an Activity Log event waits before it is listed
                    (default SANDBOX_ACTIVITY_LOG_LAG_SECONDS or 60; Azure's lag minutes)
  --tls-name NAME   a host name servers reach it at, for its certificate (repeat;
                    default SANDBOX_TLS_NAMES, comma-separated)
  --azure-propagation-seconds N
                    seconds before a new or changed Azure policy assignment or a new
                    exemption is enforced; more than 0 (default
                    SANDBOX_AZURE_PROPAGATION_SECONDS or 600: Azure takes around five
                    minutes)
  -h, --help        this help`;

const TRY_USAGE = `Usage: npm run sandbox -- try --provider aws|azure --principal P --action A --resource R [options]

Asks the running sandbox cloud whether the principal may take the action, as the provider would.

Options:
  --provider aws|azure      the cloud
  --principal P             who acts (e.g. role/Developer, user/alice)
  --action A                the API action (e.g. ec2:RunInstances)
  --resource R              the resource (ARN, resource id or '*')
  --account ID|NAME         AWS account
  --subscription ID|NAME    Azure subscription
  --region R                region or location
  --context k=v             a condition key (repeat for several)
  --url URL                 the sandbox (default SANDBOX_URL or http://127.0.0.1:4510)
  -h, --help                this help

Exit codes: 0 allowed, 3 denied, 2 bad request or sandbox unreachable.`;

async function serve(argv: string[]) {
  const values = parseOptions(
    argv,
    {
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      seed: { type: "string" },
      "no-activity": { type: "boolean" },
      "lookups-per-second": { type: "string" },
      "audit-records": { type: "string" },
      "activity-log-lag-seconds": { type: "string" },
      "trail-delay": { type: "string" },
      rate: { type: "string" },
      "tls-name": { type: "string", multiple: true },
      "azure-propagation-seconds": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    SERVE_USAGE,
  );
  const port = integerOption(
    "--port",
    values.port ?? process.env.SANDBOX_PORT,
    4510,
    { min: 0, max: 65535 },
    SERVE_USAGE,
  );
  const seed = integerOption(
    "--seed",
    values.seed ?? process.env.SANDBOX_SEED,
    DEFAULT_SEED,
    { min: 0, max: Number.MAX_SAFE_INTEGER },
    SERVE_USAGE,
  );
  const rate = positiveOption("--rate", values.rate ?? process.env.SANDBOX_ACTIVITY_RATE, 12, SERVE_USAGE);
  const lookupsPerSecond = positiveOption(
    "--lookups-per-second",
    values["lookups-per-second"] ?? process.env.SANDBOX_CLOUDTRAIL_LOOKUPS_PER_SECOND,
    CLOUDTRAIL_LOOKUPS_PER_SECOND,
    SERVE_USAGE,
  );
  const cloud = await startSandboxCloud({
    // npm runs workspace scripts in the workspace folder; relative paths mean the caller's folder.
    dataDir: resolve(
      process.env.INIT_CWD ?? process.cwd(),
      values["data-dir"] ?? process.env.SANDBOX_DATA_DIR ?? "./.palisade/sandbox",
    ),
    host: values.host ?? process.env.SANDBOX_HOST ?? "127.0.0.1",
    port,
    seed,
    activity: { enabled: !values["no-activity"], actionsPerMinute: rate },
    cloudTrailLookupsPerSecond: lookupsPerSecond,
    activityLogLagMs:
      positiveOption(
        "--activity-log-lag-seconds",
        values["activity-log-lag-seconds"] ?? process.env.SANDBOX_ACTIVITY_LOG_LAG_SECONDS,
        DEFAULT_ACTIVITY_LOG_LAG_MS / 1000,
        SERVE_USAGE,
      ) * 1000,
    trailDeliveryDelaySeconds: positiveOption(
      "--trail-delay",
      values["trail-delay"] ?? process.env.SANDBOX_TRAIL_DELAY_SECONDS,
      DEFAULT_TRAIL_DELIVERY_DELAY_SECONDS,
      SERVE_USAGE,
    ),
    maxAuditRecords: integerOption(
      "--audit-records",
      values["audit-records"] ?? process.env.SANDBOX_AUDIT_RECORDS,
      MAX_AUDIT_RECORDS,
      { min: 1, max: 10_000_000 },
      SERVE_USAGE,
    ),
    tlsNames: values["tls-name"] ?? (process.env.SANDBOX_TLS_NAMES ?? "").split(",").filter(Boolean),
    azurePolicyPropagationSeconds: positiveOption(
      "--azure-propagation-seconds",
      values["azure-propagation-seconds"] ?? process.env.SANDBOX_AZURE_PROPAGATION_SECONDS,
      AZURE_POLICY_PROPAGATION_SECONDS,
      SERVE_USAGE,
    ),
    logger: { info: (m) => console.log(m), warn: (m) => console.warn(m) },
  });
  const { aws, azure } = cloud;
  const trail = aws.organizationTrail;
  console.log(`Palisade sandbox cloud on ${cloud.url}

AWS (Organizations, STS, CloudTrail, S3)
  endpoint             ${aws.endpoint}   region ${aws.region}
  access key id        ${aws.accessKeyId}
  secret access key    ${aws.secretAccessKey}
  management account   ${aws.managementAccountId}
  connector role       ${aws.connectorRoleArn}
  delegated admin role ${aws.delegatedConnectorRoleArn}   (after the management account's PutResourcePolicy)
  external id          ${aws.externalId}
  organisation trail   s3://${trail.bucket}/${trail.keyPrefix ? `${trail.keyPrefix}/` : ""}AWSLogs/${trail.organizationId}/   region ${trail.bucketRegion}
  trail reader role    ${trail.readerRoleArn}   (same external id; files about ${trail.deliveryDelaySeconds} s after each call)

Azure (ARM, Azure AD v2 token endpoint; HTTPS with the sandbox CA below)
  ARM endpoint         ${azure.armEndpoint}
  authority host       ${azure.authorityHost}
  tenant id            ${azure.tenantId}   root management group ${azure.rootManagementGroupId}
  client id            ${azure.clientId}
  client secret        ${azure.clientSecret}
  CA certificate       GET ${cloud.url}/sandbox/info (caCertPem), also in the data directory under tls/ca.pem

Try an action: npm run sandbox -- try --provider aws --account payments-dev --principal user/alice --action ec2:RunInstances --resource '*'`);
  const stop = () => {
    void cloud.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function tryCommand(argv: string[]): Promise<number> {
  const { help: _help, ...values } = parseOptions(
    argv,
    {
      provider: { type: "string" },
      principal: { type: "string" },
      action: { type: "string" },
      resource: { type: "string" },
      account: { type: "string" },
      subscription: { type: "string" },
      region: { type: "string" },
      context: { type: "string", multiple: true },
      url: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    TRY_USAGE,
  );
  if (values.provider !== undefined && values.provider !== "aws" && values.provider !== "azure") {
    throw new UsageError(`--provider must be aws or azure, got '${values.provider}'.`, TRY_USAGE);
  }
  const missing = (["provider", "principal", "action", "resource"] as const).filter((name) => !values[name]);
  if (missing.length > 0) {
    throw new UsageError(`Missing ${missing.map((name) => `--${name}`).join(", ")}.`, TRY_USAGE);
  }
  const context: Record<string, string | string[]> = {};
  for (const pair of values.context ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--context expects key=value, got '${pair}'.`, TRY_USAGE);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const previous = context[key];
    // A key given twice becomes a multi-valued context key, as IAM allows.
    context[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const url = values.url ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.SANDBOX_PORT ?? 4510}`;
  if (!URL.canParse(url)) throw new UsageError(`--url must be a URL, got '${url}'.`, TRY_USAGE);
  let res: Response;
  try {
    res = await fetch(`${url}/sandbox/try`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...values, url: undefined, context }),
    });
  } catch (err) {
    console.error(`Cannot reach the sandbox cloud at ${url}: ${String(err)}`);
    return 2;
  }
  const body = (await res.json()) as { allowed?: boolean; error?: unknown };
  console.log(JSON.stringify(body, null, 2));
  if (res.status === 400) return 2;
  return body.allowed ? 0 : 3;
}

const COMMAND_USAGE: Record<string, string> = { serve: SERVE_USAGE, try: TRY_USAGE };

async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") throw new HelpRequested(USAGE);
  // Options without a command are the default command's, as `npm run sandbox -- --port 4600`.
  if (command === undefined || command.startsWith("-")) return serve(argv).then(() => undefined);
  switch (command) {
    case "serve":
      return serve(rest).then(() => undefined);
    case "try":
      return tryCommand(rest);
    case "help": {
      const topic = rest[0];
      if (topic === undefined) throw new HelpRequested(USAGE);
      const usage = COMMAND_USAGE[topic];
      if (!usage) throw new UsageError(`Unknown command '${topic}'.`, USAGE);
      throw new HelpRequested(usage);
    }
    default:
      throw new UsageError(`Unknown command '${command}'.`, USAGE);
  }
}

const code = await runCommandLine(() => main(process.argv.slice(2)));
if (code !== undefined) process.exitCode = code;
