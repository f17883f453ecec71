import { CloudTrailClient } from "@aws-sdk/client-cloudtrail";
import { OrganizationsClient } from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { createLimiter, DEFAULT_RETRY, type RetryOptions, withRetry } from "../retry";

interface AwsCredentialIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** How to sign in to one AWS organisation: the role to assume and where to call. */
export interface AwsSessionOptions {
  /** Sandbox or VPC endpoint; the public AWS endpoints when absent. */
  endpoint?: string;
  region: string;
  roleArn: string;
  externalId: string;
  /**
   * Keys AssumeRole is called with. Absent for a real organisation: the server's own AWS identity
   * (environment, instance profile…) from the SDK's default chain.
   */
  baseCredentials?: { accessKeyId: string; secretAccessKey: string };
  /** Calls in flight at once against this organisation. */
  concurrency?: number;
  retry?: RetryOptions;
}

/** The SDK clients of one organisation, signed with the assumed role, and the way to call them. */
export interface AwsClients {
  organizations: OrganizationsClient;
  cloudtrail: CloudTrailClient;
  /** One call through the concurrency limiter, retried when throttled. */
  call<T>(send: () => Promise<T>): Promise<T>;
  /** Every page of a list, each page through `call`. */
  allPages<T>(
    fetchPage: (token: string | undefined) => Promise<{ items: T[]; next: string | undefined }>,
  ): Promise<T[]>;
  /** Assumes the role again, whatever the current session's expiry. */
  renewSession(): Promise<void>;
  close(): void;
}

const SESSION_SECONDS = 3600;
/** Credentials are renewed this long before they expire. */
const RENEW_MS = 5 * 60_000;

/** Temporary credentials of an assumed role, renewed before they expire. */
export interface RoleSession {
  credentials(): Promise<AwsCredentialIdentity>;
  /** Assumes the role again, whatever the current session's expiry. */
  renew(): Promise<void>;
}

export function createRoleSession(
  sts: STSClient,
  roleArn: string,
  externalId: string | undefined,
  retry: RetryOptions,
): RoleSession {
  let session: AwsCredentialIdentity | undefined;
  let renewing: Promise<AwsCredentialIdentity> | undefined;
  async function assumeRole(): Promise<AwsCredentialIdentity> {
    const out = await withRetry(
      () =>
        sts.send(
          new AssumeRoleCommand({
            RoleArn: roleArn,
            RoleSessionName: "palisade",
            ExternalId: externalId || undefined,
            DurationSeconds: SESSION_SECONDS,
          }),
        ),
      retry,
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error("AssumeRole returned no credentials");
    return {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
      expiration: c.Expiration,
    };
  }
  // One AssumeRole at a time; it runs outside the limiter because the calls waiting for it hold
  // the limiter's slots.
  const credentials = async (): Promise<AwsCredentialIdentity> => {
    const expiresAt = session?.expiration?.getTime() ?? 0;
    if (session && expiresAt - Date.now() > RENEW_MS) return session;
    renewing ??= assumeRole().finally(() => {
      renewing = undefined;
    });
    session = await renewing;
    return session;
  };
  return {
    credentials,
    async renew() {
      session = undefined;
      await credentials();
    },
  };
}

export function createAwsClients(options: AwsSessionOptions): AwsClients {
  const limiter = createLimiter(options.concurrency ?? 4);
  const retry = options.retry ?? DEFAULT_RETRY;
  // The SDK's own retries are off: throttling is retried by `withRetry`, with the backoff and
  // bound Palisade chose, and other errors surface at once.
  const common = {
    region: options.region,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  };
  const sts = new STSClient({
    ...common,
    ...(options.baseCredentials ? { credentials: options.baseCredentials } : {}),
  });

  const session = createRoleSession(sts, options.roleArn, options.externalId, retry);
  const credentials = session.credentials;

  const organizations = new OrganizationsClient({ ...common, credentials });
  const cloudtrail = new CloudTrailClient({ ...common, credentials });

  const call = <T>(send: () => Promise<T>) => limiter.run(() => withRetry(send, retry));

  async function allPages<T>(
    fetchPage: (token: string | undefined) => Promise<{ items: T[]; next: string | undefined }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let token: string | undefined;
    do {
      const page = await call(() => fetchPage(token));
      out.push(...page.items);
      token = page.next;
    } while (token);
    return out;
  }

  return {
    organizations,
    cloudtrail,
    call,
    allPages,
    renewSession: session.renew,
    close() {
      sts.destroy();
      organizations.destroy();
      cloudtrail.destroy();
    },
  };
}
