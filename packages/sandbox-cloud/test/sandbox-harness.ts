import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OrganizationsClient } from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { ClientSecretCredential } from "@azure/identity";
import { type SandboxCloud, startSandboxCloud } from "../src/start-sandbox-cloud";

export interface Harness {
  cloud: SandboxCloud;
  dataDir: string;
  agent: Agent;
  azureCredential: ClientSecretCredential;
  /** Options every ARM client needs: the sandbox endpoint and an agent trusting its CA. */
  armOptions: { endpoint: string; agent: Agent };
  connectorOrganizations(): Promise<OrganizationsClient>;
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A raw ARM call with the connector's token, for operations no installed SDK client covers. */
  arm(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Moves the sandbox clock past the propagation delay, so the policy objects written so far are enforced. */
  propagate(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Tests keep Azure's propagation short but never zero: every write of an assignment or exemption
 * is enforced only after it (see src/enforce/propagation.ts).
 */
export const TEST_PROPAGATION_SECONDS = 1;

export async function startHarness(): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), "palisade-sandbox-"));
  // Log files arrive about a second after the call: delayed as CloudTrail's, short for a test.
  const options = {
    activity: { enabled: false },
    azurePolicyPropagationSeconds: TEST_PROPAGATION_SECONDS,
    trailDeliveryDelaySeconds: 1,
  };
  let cloud = await startSandboxCloud({ dataDir, port: 0, ...options });
  const agent = new Agent({ ca: cloud.azure.caCertPem, keepAlive: true });
  const makeCredential = () =>
    new ClientSecretCredential(cloud.azure.tenantId, cloud.azure.clientId, cloud.azure.clientSecret, {
      authorityHost: cloud.azure.authorityHost,
      disableInstanceDiscovery: true,
      agent,
    });
  const harness: Harness = {
    cloud,
    dataDir,
    agent,
    azureCredential: makeCredential(),
    armOptions: { endpoint: cloud.azure.armEndpoint, agent },
    async connectorOrganizations() {
      const sts = new STSClient({
        endpoint: cloud.aws.endpoint,
        region: cloud.aws.region,
        credentials: { accessKeyId: cloud.aws.accessKeyId, secretAccessKey: cloud.aws.secretAccessKey },
      });
      const { Credentials } = await sts.send(
        new AssumeRoleCommand({
          RoleArn: cloud.aws.connectorRoleArn,
          RoleSessionName: "palisade",
          ExternalId: cloud.aws.externalId,
        }),
      );
      return new OrganizationsClient({
        endpoint: cloud.aws.endpoint,
        region: cloud.aws.region,
        credentials: {
          accessKeyId: Credentials!.AccessKeyId!,
          secretAccessKey: Credentials!.SecretAccessKey!,
          sessionToken: Credentials!.SessionToken!,
        },
      });
    },
    async post(path, body) {
      const res = await fetch(`${cloud.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async arm(method, path, body) {
      const token = await harness.azureCredential.getToken("https://management.azure.com/.default");
      return new Promise((resolve, reject) => {
        const req = request(
          `${cloud.azure.armEndpoint}${path}`,
          {
            method,
            agent,
            headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
          },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => {
              text += c.toString();
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
          },
        );
        req.on("error", reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      });
    },
    async propagate() {
      await harness.post("/sandbox/control/clock", { advanceSeconds: cloud.azure.policyPropagationSeconds });
    },
    async restart() {
      const port = Number(new URL(cloud.url).port);
      await cloud.close();
      cloud = await startSandboxCloud({ dataDir, port, ...options });
      harness.cloud = cloud;
    },
    async stop() {
      agent.destroy();
      await cloud.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
