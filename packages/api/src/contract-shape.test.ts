import type { DescMessage, DescMethod } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PaginationRequestSchema, PaginationResponseSchema } from "./gen/palisade/common/v1/common_pb";
import { methodAccess } from "./method-access";
import { allServices } from "./services";

const allMethods: DescMethod[] = allServices.flatMap((service) => service.methods);
const methodName = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;
const fieldNames = (message: DescMessage) => message.fields.map((f) => f.name).sort();

// What the public pages show: the waiver page's policy card (with its settings and the scopes a
// waiver may narrow to) to anyone holding a key, and the
// invitation page to the holder of an invitation link, the sign-in page's buttons and whether an
// address signs in with single sign-on. Anything more would leak tenant data.
const publicResponseFields: Record<string, string[]> = {
  "palisade.policy.v1.PolicyService/GetBundleByKey": [
    "feedback_message",
    "key",
    "parameters",
    "policy_slug",
    // The request page says, before submit, that a waiver of a declarative guardrail exempts a whole account.
    "waiver_exempts_whole_account",
  ],
  "palisade.policy.v1.PolicyService/ListWaiverScopes": ["scopes", "total"],
  "palisade.policy.v1.PolicyService/GetDefinitionBySlug": ["display_name", "further_reading_urls", "slug"],
  "palisade.policy.v1.PolicyService/ResolvePolicyKey": ["key"],
  "palisade.team.v1.TeamService/GetInvitationByToken": ["invitation", "state"],
  "palisade.team.v1.TeamService/AcceptInvitationWithNewAccount": ["tenant_id"],
  "palisade.team.v1.TeamService/AcceptInvitation": ["tenant_id"],
  "palisade.team.v1.TeamService/SendRequesterCode": [],
  "palisade.team.v1.TeamService/SignInRequester": ["joined"],
  "palisade.account.v1.AccountService/GetSignUpOptions": [
    "max_password_length",
    "min_password_length",
    "sign_up_allowed",
  ],
  "palisade.sso.v1.SsoService/GetSignInOptions": ["google_one_tap_client_id", "providers"],
  "palisade.sso.v1.SsoService/LookupDomain": ["required", "sso"],
};

describe("contract shape", () => {
  it.each(allMethods.filter((m) => methodAccess(m).public).map((m) => [methodName(m), m] as const))(
    "public %s answers only what its page shows",
    (name, method) => {
      expect(fieldNames(method.output)).toEqual(publicResponseFields[name]);
    },
  );

  const pagedMethods = allMethods.filter((m) => m.output.fields.some((f) => f.name === "pagination"));

  it("has paged list methods", () => {
    expect(pagedMethods.length).toBeGreaterThan(10);
  });

  it.each(pagedMethods.map((m) => [methodName(m), m] as const))(
    "paged %s takes a PaginationRequest and answers items with a PaginationResponse",
    (_, method) => {
      const request = method.input.fields.find((f) => f.name === "pagination");
      const response = method.output.fields.find((f) => f.name === "pagination");
      const items = method.output.fields.find((f) => f.name === "items");
      expect(request?.message?.typeName).toBe(PaginationRequestSchema.typeName);
      expect(response?.message?.typeName).toBe(PaginationResponseSchema.typeName);
      expect(items?.fieldKind).toBe("list");
    },
  );

  it.each(allMethods.map((m) => [methodName(m), m] as const))(
    "%s has its own request and response",
    (_, method) => {
      expect(method.input.name).toBe(`${method.name}Request`);
      expect(method.output.name).toBe(`${method.name}Response`);
    },
  );
});
