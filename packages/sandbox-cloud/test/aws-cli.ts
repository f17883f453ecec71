import { execFile } from "node:child_process";

/** The AWS CLI v1 (Python, botocore): a client nobody here wrote, driving the sandbox unchanged. */
export const AWS_CLI = process.env.AWS_CLI ?? "/root/.pyenv/shims/aws";

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
