import { Agent } from "node:https";
import {
  ManagementGroupsAPI,
  getContinuationToken as managementGroupsToken,
} from "@azure/arm-managementgroups";
import { MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { ResourceManagementClient } from "@azure/arm-resources";
import {
  createDefaultHttpClient,
  createPipelineRequest,
  type HttpHeaders,
  RestError,
} from "@azure/core-rest-pipeline";
import { ClientCertificateCredential, ClientSecretCredential, type TokenCredential } from "@azure/identity";
import { errorMessage, errorStatus } from "../errors";
import {
  backoffDelay,
  createLimiter,
  DEFAULT_RETRY,
  isDroppedConnection,
  type RetryOptions,
  throttleDelay,
  withRetry,
} from "../retry";

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

/** Where a paged read resumes: the Azure SDKs' `byPage({ continuationToken })`. */
export interface PageSettings {
  continuationToken?: string;
}

/** A list ARM answers as `{ value, nextLink }` pages (policy insights: `@odata.nextLink`). */
export interface NextLinkList {
  url: string;
  /** How the first page and every next link are requested; policy insights queries are POSTs. */
  method: "GET" | "POST";
  nextLinkName: "nextLink" | "@odata.nextLink";
}

/** A page of such a list: its entries, the link to the next page, and ARM's time when it answered. */
export type ListPage<T> = T[] & { continuationToken?: string; answeredAt?: Date };

/** The ARM clients of one tenant, signed in as the app registration, and the way to call them. */
export interface AzureClients {
  credential: TokenCredential;
  managementGroups: ManagementGroupsAPI;
  resources: ResourceManagementClient;
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
  /**
   * Reads a paged list in full, each page through the limiter. A page refused by throttling or a
   * server error is asked again from the continuation token of the last page read; a read that
   * cannot resume fails.
   */
  collect<T>(list: (settings: PageSettings) => AsyncIterable<T[]>): Promise<T[]>;
  /** The pages of a list no SDK operation pages correctly, requested as the service documents. */
  nextLinkPages<T>(list: NextLinkList, settings: PageSettings): AsyncIterable<ListPage<T>>;
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

  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function collect<T>(list: (settings: PageSettings) => AsyncIterable<T[]>): Promise<T[]> {
    const out: T[] = [];
    let token: string | undefined;
    let pagesRead = 0;
    let attempt = 1;
    let pages = list({})[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<T[]>;
      try {
        next = await limiter.run(() => pages.next());
      } catch (error) {
        const retryable = pageRetryDelay(error);
        if (!retryable || attempt >= retry.maxAttempts) throw error;
        if (pagesRead > 0 && !token) {
          throw new Error(
            `The list could not be read past page ${pagesRead}: ${errorMessage(error)} (no continuation token to resume from).`,
            { cause: error },
          );
        }
        await sleep(backoffDelay(attempt, retryable.retryAfterMs, retry));
        attempt += 1;
        // An async generator that has thrown is finished: the read goes on in a new one that
        // starts at the last page read.
        pages = list(token ? { continuationToken: token } : {})[Symbol.asyncIterator]();
        continue;
      }
      if (next.done) return out;
      attempt = 1;
      pagesRead += 1;
      out.push(...next.value);
      token = continuationTokenOf(next.value);
    }
  }

  const httpClient = createDefaultHttpClient();
  async function* nextLinkPages<T>(list: NextLinkList, settings: PageSettings): AsyncIterable<ListPage<T>> {
    let url: string | undefined = settings.continuationToken ?? list.url;
    while (url) {
      const response = await resources.pipeline.sendRequest(
        httpClient,
        createPipelineRequest({ url, method: list.method }),
      );
      let body: { value?: T[]; error?: { code?: string; message?: string } } & Record<string, unknown>;
      try {
        body = JSON.parse(response.bodyAsText || "{}");
      } catch {
        throw new RestError(`ARM answered ${url} with a body that is not JSON`, {
          statusCode: response.status,
          response,
        });
      }
      if (response.status >= 400) {
        throw new RestError(body.error?.message ?? `ARM answered ${response.status} for ${url}`, {
          statusCode: response.status,
          code: body.error?.code,
          response,
        });
      }
      if (!Array.isArray(body.value)) {
        throw new RestError(`ARM answered ${url} without a value list`, { statusCode: response.status });
      }
      const next = body[list.nextLinkName];
      url = typeof next === "string" && next ? next : undefined;
      // The bearer token goes only where the list began.
      if (url && new URL(url).origin !== new URL(list.url).origin) {
        throw new RestError(`ARM's next link ${url} leaves ${new URL(list.url).origin}`, {
          statusCode: response.status,
        });
      }
      yield Object.assign(body.value, { continuationToken: url, answeredAt: answeredAt(response.headers) });
    }
  }

  return {
    credential,
    armEndpoint: (connection.armEndpoint ?? "https://management.azure.com").replace(/\/+$/, ""),
    managementGroups,
    resources,
    tenantPolicy,
    clientsFor,
    call,
    collect,
    nextLinkPages,
    close() {
      agent?.destroy();
    },
  };
}

/**
 * ARM's time when it answered: the Date header, "the date that the request was processed"
 * (https://github.com/Azure/azure-resource-manager-rpc/blob/master/v1.0/common-api-details.md#response-headers).
 */
function answeredAt(headers: HttpHeaders): Date | undefined {
  const date = new Date(headers.get("date") ?? "");
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Throttling (with its `Retry-After`), server errors and a dropped connection are worth asking a
 * page again; nothing else is.
 */
function pageRetryDelay(error: unknown): { retryAfterMs: number | undefined } | undefined {
  const status = errorStatus(error);
  const transient = (status !== undefined && status >= 500) || isDroppedConnection(error);
  return throttleDelay(error) ?? (transient ? { retryAfterMs: undefined } : undefined);
}

/**
 * The token a page carries: newer SDKs set it on the page, older ones (management groups) keep it
 * in their own paging helper.
 */
function continuationTokenOf(page: unknown): string | undefined {
  const own = (page as { continuationToken?: unknown }).continuationToken;
  return typeof own === "string" && own ? own : managementGroupsToken(page);
}
