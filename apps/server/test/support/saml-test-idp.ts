import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as saml from "samlify";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/saml/${name}`, import.meta.url), "utf8");
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const EMAIL_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/**
 * A SAML 2.0 identity provider (samlify) on a loopback port. Its single sign-on URL takes the
 * service provider's AuthnRequest (HTTP-Redirect binding) and answers the browser with the usual
 * auto-submitting form carrying a signed Response for the signed-in user (HTTP-POST binding).
 */
export interface SamlTestIdp {
  entityId: string;
  ssoUrl: string;
  /** The IdP's signing certificate (what the tenant administrator registers). */
  certificate: string;
  /** Who is signed in at the IdP, and whether a forger's key signs the response instead of the IdP's. */
  session: { email: string; forged: boolean };
  /** The service provider's metadata, read from its URL. */
  trustServiceProvider(metadataXml: string): void;
  stop(): Promise<void>;
}

export async function startSamlTestIdp(): Promise<SamlTestIdp> {
  let sp: ReturnType<typeof saml.ServiceProvider> | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? "/", idp.ssoUrl);
        if (!sp) throw new Error("no service provider registered");
        const signer = idp.session.forged ? forger : genuine;
        const parsed = await signer.parseLoginRequest(sp, "redirect", {
          query: Object.fromEntries(url.searchParams),
          octetString: url.search.slice(1),
        });
        const relayState = url.searchParams.get("RelayState") ?? undefined;
        const response = (await signer.createLoginResponse(
          sp,
          { extract: parsed.extract },
          "post",
          { email: idp.session.email },
          { relayState },
        )) as { context: string; entityEndpoint: string; relayState?: string };
        const field = (name: string, value: string) =>
          `<input type="hidden" name="${name}" value="${value.replace(/"/g, "&quot;")}"/>`;
        res.setHeader("content-type", "text/html");
        res.end(
          `<form method="post" action="${response.entityEndpoint}">${field("SAMLResponse", response.context)}${
            relayState ? field("RelayState", relayState) : ""
          }</form>`,
        );
      } catch (error) {
        res.statusCode = 400;
        res.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/metadata`;
  const ssoUrl = `${origin}/sso`;
  const settings = (key: string, cert: string) =>
    saml.IdentityProvider({
      entityID: entityId,
      privateKey: key,
      signingCert: cert,
      singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
      nameIDFormat: [EMAIL_NAME_ID],
      isAssertionEncrypted: false,
    });
  const genuine = settings(fixture("idp-key.pem"), fixture("idp-cert.pem"));
  const forger = settings(fixture("attacker-key.pem"), fixture("attacker-cert.pem"));
  const idp: SamlTestIdp = {
    entityId,
    ssoUrl,
    certificate: fixture("idp-cert.pem"),
    session: { email: "", forged: false },
    trustServiceProvider(metadataXml) {
      sp = saml.ServiceProvider({ metadata: metadataXml });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return idp;
}
