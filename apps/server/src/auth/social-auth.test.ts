import { describe, expect, it } from "vitest";
import { readSocialSignIn, SOCIAL_PROVIDERS, signInProviders, socialProviderOptions } from "./social-auth";

describe("social sign-in configuration", () => {
  it.each(SOCIAL_PROVIDERS)("%s is turned on by its client id and secret", (provider) => {
    const prefix = `AUTH_${provider.toUpperCase()}`;
    const config = readSocialSignIn({
      [`${prefix}_CLIENT_ID`]: "id-1",
      [`${prefix}_CLIENT_SECRET`]: " secret-1 ",
    });
    expect(config.providers).toEqual({ [provider]: { clientId: "id-1", clientSecret: "secret-1" } });
    expect(Object.keys(socialProviderOptions(config))).toEqual([provider]);
    expect(signInProviders(config).map((p) => p.id)).toEqual([provider]);
  });

  it.each(SOCIAL_PROVIDERS)("%s with only half of its pair is refused, naming both variables", (provider) => {
    const prefix = `AUTH_${provider.toUpperCase()}`;
    expect(() => readSocialSignIn({ [`${prefix}_CLIENT_ID`]: "id-1" })).toThrow(
      `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`,
    );
    expect(() => readSocialSignIn({ [`${prefix}_CLIENT_SECRET`]: "s" })).toThrow(`${prefix}_CLIENT_ID`);
  });

  it("nothing configured offers no provider and no One Tap", () => {
    const config = readSocialSignIn({});
    expect(signInProviders(config)).toEqual([]);
    expect(config.oidc).toBeUndefined();
    expect(config.googleOneTap).toBe(false);
  });

  it("all nine, in the specification's order, with their names", () => {
    const env = Object.fromEntries(
      SOCIAL_PROVIDERS.flatMap((p) => [
        [`AUTH_${p.toUpperCase()}_CLIENT_ID`, `${p}-id`],
        [`AUTH_${p.toUpperCase()}_CLIENT_SECRET`, `${p}-secret`],
      ]),
    );
    expect(signInProviders(readSocialSignIn(env)).map((p) => p.name)).toEqual([
      "Facebook",
      "GitHub",
      "Google",
      "Microsoft",
      "GitLab",
      "Apple",
      "Discord",
      "LinkedIn",
      "Slack",
    ]);
  });

  it("Microsoft's tenant and a self-managed GitLab are passed on", () => {
    const config = readSocialSignIn({
      AUTH_MICROSOFT_CLIENT_ID: "m",
      AUTH_MICROSOFT_CLIENT_SECRET: "s",
      AUTH_MICROSOFT_TENANT_ID: "organizations",
      AUTH_GITLAB_CLIENT_ID: "g",
      AUTH_GITLAB_CLIENT_SECRET: "s",
      AUTH_GITLAB_ISSUER: "https://gitlab.example.com/",
    });
    expect(socialProviderOptions(config)).toEqual({
      microsoft: { clientId: "m", clientSecret: "s", tenantId: "organizations" },
      gitlab: { clientId: "g", clientSecret: "s", issuer: "https://gitlab.example.com" },
    });
  });

  it("Google turns One Tap on unless AUTH_GOOGLE_ONE_TAP=false", () => {
    const google = { AUTH_GOOGLE_CLIENT_ID: "g", AUTH_GOOGLE_CLIENT_SECRET: "s" };
    expect(readSocialSignIn(google).googleOneTap).toBe(true);
    expect(readSocialSignIn({ ...google, AUTH_GOOGLE_ONE_TAP: "false" }).googleOneTap).toBe(false);
  });

  it("a generic OpenID Connect provider by issuer URL, named on its button", () => {
    const config = readSocialSignIn({
      AUTH_OIDC_ISSUER: "https://id.example.com/",
      AUTH_OIDC_CLIENT_ID: "c",
      AUTH_OIDC_CLIENT_SECRET: "s",
      AUTH_OIDC_NAME: "Example ID",
    });
    expect(config.oidc).toEqual({
      issuer: "https://id.example.com",
      clientId: "c",
      clientSecret: "s",
      name: "Example ID",
    });
    expect(signInProviders(config)).toEqual([{ id: "oidc", name: "Example ID" }]);
    expect(() => readSocialSignIn({ AUTH_OIDC_ISSUER: "https://id.example.com" })).toThrow(
      "AUTH_OIDC_ISSUER, AUTH_OIDC_CLIENT_ID and AUTH_OIDC_CLIENT_SECRET must be set together",
    );
    expect(() =>
      readSocialSignIn({
        AUTH_OIDC_ISSUER: "id.example.com",
        AUTH_OIDC_CLIENT_ID: "c",
        AUTH_OIDC_CLIENT_SECRET: "s",
      }),
    ).toThrow("AUTH_OIDC_ISSUER must be a URL");
  });
});
