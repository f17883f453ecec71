import { Agent } from "node:https";
import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { PolicyInsightsClient } from "@azure/arm-policyinsights";
import { ResourceManagementClient } from "@azure/arm-resources";
import { ClientCertificateCredential, ClientSecretCredential, type TokenCredential } from "@azure/identity";
import { createLimiter, DEFAULT_RETRY, type RetryOptions, withRetry } from "../retry";

/** How to sign in to one Azure (Entra ID) tenant and where to call. */
export interface AzureSessionOptions {
  tenantId: string;
  clientId: string;
  credential: { kind: "secret"; clientSecret: string } | { kind: "certificate"; pem: string };
  /** ARM endpoint; https://management.azure.com when absent. */
  armEndpoint?: string;
  /** Token authority; https://login.microsoftonline.com when absent. */
  authorityHost?: string;
  /** Extra CA to trust (the sandbox's private CA). */
  caCertPem?: string;
  concurrency?: number;
  retry?: RetryOptions;
}

/** The ARM clients of one tenant, signed in as the app registration, and the way to call them. */
export interface AzureClients {
  credential: TokenCredential;
  managementGroups: ManagementGroupsAPI;
  resources: ResourceManagementClient;
  insights: PolicyInsightsClient;
  /** Management group operations take no subscription; any id builds the client. */
  tenantPolicy: PolicyClient;
  clientsFor(subscriptionId: string): {
    policy: PolicyClient;
    monitor: MonitorClient;
    rm: ResourceManagementClient;
  };
  /** ARM's address, for the few requests no SDK operation covers. */
  armEndpoint: string;
  /** One call through the concurrency limiter, retried when throttled. */
  call<T>(send: () => Promise<T>): Promise<T>;
  /** Reads a paged list, each page through the limiter and retry. */
  collect<T>(list: () => AsyncIterable<T[]>): Promise<T[]>;
  close(): void;
}

export function createAzureClients(connection: AzureSessionOptions): AzureClients {
  const limiter = createLimiter(connection.concurrency ?? 4);
  const retry = connection.retry ?? DEFAULT_RETRY;
  const agent = connection.caCertPem ? new Agent({ ca: connection.caCertPem, keepAlive: true }) : undefined;
  const credentialOptions = {
    ...(connection.authorityHost
      ? { authorityHost: connection.authorityHost, disableInstanceDiscovery: true }
      : {}),
    ...(agent ? { agent } : {}),
  };
  const credential: TokenCredential =
    connection.credential.kind === "secret"
      ? new ClientSecretCredential(
          connection.tenantId,
          connection.clientId,
          connection.credential.clientSecret,
          credentialOptions,
        )
      : new ClientCertificateCredential(
          connection.tenantId,
          connection.clientId,
          { certificate: connection.credential.pem },
          credentialOptions,
        );
  // The pipelines' own retries are off: throttling is retried by `withRetry` instead.
  const clientOptions = {
    ...(connection.armEndpoint ? { endpoint: connection.armEndpoint } : {}),
    ...(agent ? { agent } : {}),
    retryOptions: { maxRetries: 0 },
  };
  const managementGroups = new ManagementGroupsAPI(credential, clientOptions);
  const resources = new ResourceManagementClient(credential, clientOptions);
  const insights = new PolicyInsightsClient(credential, clientOptions);
  const perSubscription = new Map<
    string,
    { policy: PolicyClient; monitor: MonitorClient; rm: ResourceManagementClient }
  >();
  const clientsFor = (subscriptionId: string) => {
    let clients = perSubscription.get(subscriptionId);
    if (!clients) {
      clients = {
        policy: new PolicyClient(credential, subscriptionId, clientOptions),
        monitor: new MonitorClient(credential, subscriptionId, clientOptions),
        rm: new ResourceManagementClient(credential, subscriptionId, clientOptions),
      };
      perSubscription.set(subscriptionId, clients);
    }
    return clients;
  };
  const tenantPolicy = new PolicyClient(credential, clientOptions);

  const call = <T>(send: () => Promise<T>) => limiter.run(() => withRetry(send, retry));

  /** Reads a paged list, each page through the limiter and retry. */
  async function collect<T>(list: () => AsyncIterable<T[]>): Promise<T[]> {
    const out: T[] = [];
    const pages = list()[Symbol.asyncIterator]();
    for (;;) {
      const next = await call(() => pages.next());
      if (next.done) return out;
      out.push(...next.value);
    }
  }

  return {
    credential,
    armEndpoint: (connection.armEndpoint ?? "https://management.azure.com").replace(/\/+$/, ""),
    managementGroups,
    resources,
    insights,
    tenantPolicy,
    clientsFor,
    call,
    collect,
    close() {
      agent?.destroy();
    },
  };
}
