import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const PYENV_ROOT = "/root/.pyenv";

/**
 * The program behind pyenv's shim: the shim starts pyenv to find it on every call, a third of a
 * call's time here (0.47 s against 0.34 s for `aws --version`); the shim where pyenv cannot say.
 */
function programBehindShim(name: string): string {
  const shim = `${PYENV_ROOT}/shims/${name}`;
  try {
    const program = execFileSync(`${PYENV_ROOT}/libexec/pyenv`, ["which", name], {
      encoding: "utf8",
      env: { ...process.env, PYENV_ROOT },
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return program && existsSync(program) ? program : shim;
  } catch {
    return shim;
  }
}

/** The AWS CLI v1 (Python, botocore): a client nobody here wrote, driving the sandbox unchanged. */
export const AWS_CLI = process.env.AWS_CLI ?? programBehindShim("aws");

/** Whether the AWS CLI is installed; under CI a missing CLI fails the run rather than skipping its tests. */
export function awsCliPresent(): boolean {
  const present = existsSync(AWS_CLI);
  if (!present && process.env.CI === "true") throw new Error(`The AWS CLI is required under CI: ${AWS_CLI}`);
  return present;
}

export interface CliCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * Runs `aws <args>` against `endpoint` in `region` with only the given credentials: no config or
 * credentials file, one attempt (a throttled or refused call shows as it is answered).
 */
export function runAws(
  endpoint: string,
  region: string,
  credentials: CliCredentials,
  args: string[],
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PYENV_ROOT: process.env.PYENV_ROOT,
    AWS_CONFIG_FILE: "/dev/null",
    AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_MAX_ATTEMPTS: "1",
    AWS_RETRY_MODE: "standard",
    AWS_EC2_METADATA_DISABLED: "true",
    ...(credentials.sessionToken ? { AWS_SESSION_TOKEN: credentials.sessionToken } : {}),
  };
  return new Promise((resolve) => {
    execFile(
      AWS_CLI,
      [...args, "--endpoint-url", endpoint, "--region", region, "--output", "json"],
      { env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T });
      },
    );
  });
}

/** `aws sts assume-role`: the session's credentials, as the CLI prints them. */
export async function assumeRoleWithCli(
  endpoint: string,
  credentials: CliCredentials,
  roleArn: string,
  sessionName: string,
  externalId?: string,
): Promise<Required<CliCredentials>> {
  const out = await runAws(endpoint, "us-east-1", credentials, [
    "sts",
    "assume-role",
    "--role-arn",
    roleArn,
    "--role-session-name",
    sessionName,
    ...(externalId ? ["--external-id", externalId] : []),
  ]);
  if (out.code !== 0) throw new Error(`assume-role failed: ${out.stderr}`);
  const c = out.json<{
    Credentials: { AccessKeyId: string; SecretAccessKey: string; SessionToken: string };
  }>().Credentials;
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

/** The CLI's report of a refused call: "An error occurred (Code) when calling the Op operation[ (...)]: Message". */
export function refusal(out: CliResult): { code?: string; operation?: string; message: string } {
  const m = /An error occurred \(([^)]+)\) when calling the (\w+) operation(?: \([^)]*\))?: (.*)/.exec(
    out.stderr,
  );
  return { code: m?.[1], operation: m?.[2], message: m?.[3] ?? out.stderr };
}

/** The sandbox's access key for a principal of an account (its control API), with the account's id. */
export async function sandboxAccessKey(
  endpoint: string,
  account: string,
  principal = "user/alice",
): Promise<Required<Omit<CliCredentials, "sessionToken">> & { principalArn: string; accountId: string }> {
  const response = await fetch(`${endpoint}/sandbox/control/access-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account, principal }),
  });
  if (!response.ok) throw new Error(`access-key failed: ${response.status} ${await response.text()}`);
  const key = (await response.json()) as {
    accessKeyId: string;
    secretAccessKey: string;
    principalArn: string;
  };
  return { ...key, accountId: key.principalArn.split(":")[4]! };
}

/** The member-account principal the CLI tests call as: alice's access key, and her session of the Developer role. */
export async function developerSession(endpoint: string, account: string) {
  const alice = await sandboxAccessKey(endpoint, account);
  const developer = await assumeRoleWithCli(
    endpoint,
    alice,
    `arn:aws:iam::${alice.accountId}:role/Developer`,
    "alice",
  );
  return { alice, developer };
}
