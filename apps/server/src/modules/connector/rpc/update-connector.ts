import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  UpdateConnectorRequest,
  UpdateConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { readConfig, readName } from "../connector-config";
import { connectorMessage } from "../connector-message";
import { updateConnector as updateTenantConnector } from "../connector-repository";
import { type ConnectorServiceDeps, requireConnector, sealSecret } from "../connectors";

const KIND_LABEL: Record<string, string> = {
  aws: "An AWS connector",
  azure: "An Azure connector",
  sandbox: "A sandbox connector",
};

export async function updateConnector(
  deps: ConnectorServiceDeps,
  req: UpdateConnectorRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateConnectorResponseSchema>> {
  const { db, runtime } = deps;
  const caller = requireCaller(ctx);
  const row = await requireConnector(db, caller.tenantId, req.id);
  const patch: Parameters<typeof updateTenantConnector>[3] = {};
  const changed: string[] = [];
  if (req.name !== undefined) {
    patch.name = readName(req.name);
    changed.push("name");
  }
  if (req.config?.kind.case) {
    const before = runtime.settingsOf(row);
    const next = readConfig(
      req.config,
      { config: before.config, secret: before.secret },
      runtime.sandbox() !== undefined,
    );
    if (next.kind !== row.kind || next.config.provider !== before.config.provider) {
      throw invalidArgument(
        `${KIND_LABEL[row.kind] ?? "A connector"} stays one; create a new connector for another kind or provider.`,
      );
    }
    patch.config = next.config;
    patch.secretCiphertext = sealSecret(deps.secretBox, next.secret, row.id);
    // The events source may have changed: the next fetch says whether the new one reads.
    patch.eventsError = null;
    changed.push("config");
  }
  if (changed.length === 0) return { connector: connectorMessage(row) };
  const updated = await db.transaction(async (tx) => {
    const saved = (await updateTenantConnector(tx, caller.tenantId, row.id, patch)) ?? row;
    await recordAudit(tx, ctx, {
      target: { type: "connector", id: row.id, name: saved.name },
      before: { name: row.name, config: row.config },
      after: { name: saved.name, config: saved.config, changed },
    });
    return saved;
  });
  if (patch.config) runtime.forget(row.id);
  return { connector: connectorMessage(updated) };
}
