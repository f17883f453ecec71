import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetSetupInstructionsRequest,
  GetSetupInstructionsResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import type { ProviderName } from "../../../cloud/cloud-provider";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { providerName } from "../connector-config";
import type { StoredConfig } from "../connector-repository";
import { type ConnectorServiceDeps, requireConnector } from "../connectors";
import { awsSetup, azureSetup, SANDBOX_MARKDOWN } from "../setup-instructions";

export async function getSetupInstructions(
  deps: ConnectorServiceDeps,
  req: GetSetupInstructionsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetSetupInstructionsResponseSchema>> {
  const caller = requireCaller(ctx);
  const target = req.target;
  let provider: ProviderName;
  let config: StoredConfig | undefined;
  if (target.case === "connectorId") {
    const row = await requireConnector(deps.db, caller.tenantId, target.value);
    config = row.config as StoredConfig;
    if (row.kind === "sandbox") return { instructions: { case: undefined }, markdown: SANDBOX_MARKDOWN };
    provider = config.provider;
  } else if (target.case === "provider") {
    provider = providerName(target.value, "provider");
  } else {
    throw invalidArgument("Give a connector id or a provider.");
  }
  if (provider === "aws") {
    const { markdown, ...aws } = awsSetup({
      principalArn: deps.awsPrincipalArn,
      externalId: config && "externalId" in config ? config.externalId : undefined,
    });
    return { instructions: { case: "aws", value: aws }, markdown };
  }
  const setup = azureSetup(config && "tenantId" in config ? config.tenantId : undefined);
  return {
    instructions: { case: "azure", value: { roleAssignments: setup.roleAssignments } },
    markdown: setup.markdown,
  };
}
