import { randomUUID } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CreateConnectorRequest,
  CreateConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { readConfig, readName } from "../connector-config";
import { connectorMessage } from "../connector-message";
import { insertConnector } from "../connector-repository";
import { type ConnectorServiceDeps, sealSecret } from "../connectors";

export async function createConnector(
  deps: ConnectorServiceDeps,
  req: CreateConnectorRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateConnectorResponseSchema>> {
  const { db, runtime } = deps;
  const caller = requireCaller(ctx);
  const name = readName(req.name);
  const { kind, config, secret } = readConfig(req.config, undefined, runtime.sandbox() !== undefined);
  const id = randomUUID();
  const row = await db.transaction(async (tx) => {
    const inserted = await insertConnector(tx, {
      id,
      tenantId: caller.tenantId,
      name,
      kind,
      config,
      secretCiphertext: sealSecret(deps.secretBox, secret, id),
      createdBy: caller.id,
    });
    await recordAudit(tx, ctx, {
      target: { type: "connector", id: inserted.id, name },
      after: { name, kind, config },
    });
    return inserted;
  });
  return { connector: connectorMessage(row) };
}
