import { OrganizationsClient } from "@aws-sdk/client-organizations";
import { S3Client } from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import type { SandboxCloud } from "@palisade/sandbox-cloud/start-sandbox-cloud";

interface Keys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * The official SDK's STS client on the sandbox's plain-http endpoint, so a call's
 * aws:SecureTransport is false.
 */
export function sandboxSts(sandboxUrl: string, credentials: Keys): STSClient {
  return new STSClient({ endpoint: sandboxUrl, region: "us-east-1", credentials });
}

/** The official SDK's S3 client on the sandbox's plain-http endpoint, with path-style bucket addresses. */
export function sandboxS3(sandboxUrl: string, credentials: Keys): S3Client {
  return new S3Client({ endpoint: sandboxUrl, region: "us-east-1", forcePathStyle: true, credentials });
}

/** The official SDK's Organizations client of the sandbox, as the management account (its own key). */
export function sandboxOrganizations({ aws }: Pick<SandboxCloud, "aws">): OrganizationsClient {
  return new OrganizationsClient({
    endpoint: aws.endpoint,
    region: aws.region,
    credentials: { accessKeyId: aws.accessKeyId, secretAccessKey: aws.secretAccessKey },
  });
}

/** A session of the role (sts:AssumeRole with the key), as its temporary keys. */
export async function roleSession(
  sandboxUrl: string,
  key: Keys,
  roleArn: string,
  sessionName: string,
): Promise<Required<Keys>> {
  const sts = sandboxSts(sandboxUrl, key);
  const assumed = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: sessionName }));
  sts.destroy();
  return {
    accessKeyId: assumed.Credentials!.AccessKeyId!,
    secretAccessKey: assumed.Credentials!.SecretAccessKey!,
    sessionToken: assumed.Credentials!.SessionToken!,
  };
}
