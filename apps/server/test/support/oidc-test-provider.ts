import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Adapter, type AdapterPayload } from "oidc-provider";

/**
 * A real OpenID Provider (oidc-provider, certified) on a loopback port, with its development
 * sign-in pages: any login name signs in, and the account's e-mail is that login name.
 */
export interface OidcTestProvider {
  issuer: string;
  /** Registers (or replaces) a confidential client. */
  addClient(client: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  stop(): Promise<void>;
}

/** On `port` when given (a server configured with its issuer in advance), else any free port. */
export async function startOidcTestProvider(port = 0): Promise<OidcTestProvider> {
  const clients = new Map<string, AdapterPayload>();
  const stores = new Map<string, Map<string, AdapterPayload>>();

  class MemoryAdapter implements Adapter {
    private readonly store: Map<string, AdapterPayload>;
    constructor(private readonly model: string) {
      this.store = stores.get(model) ?? new Map();
      stores.set(model, this.store);
    }
    async upsert(id: string, payload: AdapterPayload) {
      this.store.set(id, payload);
    }
    async find(id: string) {
      return this.model === "Client" ? clients.get(id) : this.store.get(id);
    }
    async findByUserCode(userCode: string) {
      return [...this.store.values()].find((p) => p.userCode === userCode);
    }
    async findByUid(uid: string) {
      return [...this.store.values()].find((p) => p.uid === uid);
    }
    async consume(id: string) {
      const payload = this.store.get(id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      this.store.delete(id);
    }
    async revokeByGrantId(grantId: string) {
      for (const [id, payload] of this.store) if (payload.grantId === grantId) this.store.delete(id);
    }
  }

  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (!handler) {
      res.statusCode = 503;
      res.end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    adapter: MemoryAdapter,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["oidc-test-provider-cookie-key"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: sub, email_verified: true, name: `SSO ${sub.split("@")[0]}` };
        },
      };
    },
  });
  handler = provider.callback();
  return {
    issuer,
    addClient({ clientId, clientSecret, redirectUris }) {
      clients.set(clientId, {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
