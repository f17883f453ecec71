import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SEED, startSandboxCloud } from "./start-sandbox-cloud";

const USAGE = `Usage:
  npm run sandbox                      start the sandbox cloud (SANDBOX_PORT, SANDBOX_DATA_DIR)
  npm run sandbox -- try --provider aws|azure --principal P --action A --resource R
                     [--account ID|NAME] [--subscription ID|NAME] [--region R]
                     [--context k=v ...] [--url http://127.0.0.1:4510]

Exit codes of try: 0 allowed, 3 denied, 2 bad request or sandbox unreachable.`;

async function serve(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      seed: { type: "string" },
      "no-activity": { type: "boolean" },
      rate: { type: "string" },
    },
  });
  const cloud = await startSandboxCloud({
    // npm runs workspace scripts in the workspace folder; relative paths mean the caller's folder.
    dataDir: resolve(
      process.env.INIT_CWD ?? process.cwd(),
      values["data-dir"] ?? process.env.SANDBOX_DATA_DIR ?? "./.palisade/sandbox",
    ),
    host: values.host ?? process.env.SANDBOX_HOST ?? "127.0.0.1",
    port: Number(values.port ?? process.env.SANDBOX_PORT ?? 4510),
    seed: Number(values.seed ?? process.env.SANDBOX_SEED ?? DEFAULT_SEED),
    activity: {
      enabled: !values["no-activity"],
      actionsPerMinute: Number(values.rate ?? process.env.SANDBOX_ACTIVITY_RATE ?? 12),
    },
    logger: { info: (m) => console.log(m), warn: (m) => console.warn(m) },
  });
  const { aws, azure } = cloud;
  console.log(`Palisade sandbox cloud on ${cloud.url}

AWS (Organizations, STS, CloudTrail)
  endpoint             ${aws.endpoint}   region ${aws.region}
  access key id        ${aws.accessKeyId}
  secret access key    ${aws.secretAccessKey}
  management account   ${aws.managementAccountId}
  connector role       ${aws.connectorRoleArn}
  external id          ${aws.externalId}

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
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: "string" },
      principal: { type: "string" },
      action: { type: "string" },
      resource: { type: "string" },
      account: { type: "string" },
      subscription: { type: "string" },
      region: { type: "string" },
      context: { type: "string", multiple: true },
      url: { type: "string" },
    },
  });
  const context: Record<string, string | string[]> = {};
  for (const pair of values.context ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) {
      console.error(`--context expects key=value, got '${pair}'`);
      return 2;
    }
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const previous = context[key];
    // A key given twice becomes a multi-valued context key, as IAM allows.
    context[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const url = values.url ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.SANDBOX_PORT ?? 4510}`;
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

const [command, ...rest] = process.argv.slice(2);
if (command === "try") process.exitCode = await tryCommand(rest);
else if (command === "help" || command === "--help") console.log(USAGE);
else await serve(command === "serve" || command === undefined ? rest : [command, ...rest]);
