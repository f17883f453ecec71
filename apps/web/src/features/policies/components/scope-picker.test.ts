import { create } from "@bufbuild/protobuf";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorSchema } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { describe, expect, it } from "vitest";
import { managementAccountScopes, scopeId } from "./scope-picker";

// Service control policies never restrict the management account
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html).
describe("managementAccountScopes", () => {
  it("keeps each AWS connector's management account out of the deployable scopes", () => {
    const connectors = [
      create(ConnectorSchema, {
        entity: { id: "c-aws" },
        config: { kind: { case: "aws", value: { managementAccountId: "999988887777", roleArn: "r" } } },
      }),
      create(ConnectorSchema, {
        entity: { id: "c-sandbox" },
        config: { kind: { case: "sandbox", value: { provider: CloudProvider.AWS } } },
      }),
    ];
    expect(managementAccountScopes(connectors)).toEqual(
      new Set([scopeId({ connectorId: "c-aws", externalId: "999988887777" })]),
    );
  });
});
