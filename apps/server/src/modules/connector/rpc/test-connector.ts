import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { AwsPolicyType, type ConnectorConfig } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import type {
  TestConnectorRequest,
  TestConnectorResponseSchema,
} from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { type Caller, requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { readConfig } from "../connector-config";
import { findConnector, updateConnector } from "../connector-repository";
import { type ConnectorServiceDeps, requireConnector, runChecks } from "../connectors";
import type { PolicyTypeState } from "../policy-type-report";

type Response = MessageInitShape<typeof TestConnectorResponseSchema>;

const policyTypeMessage = (state: PolicyTypeState) => ({ ...state, type: AwsPolicyType[state.type] });

export async function testConnector(
  deps: ConnectorServiceDeps,
  req: TestConnectorRequest,
  ctx: HandlerContext,
): Promise<Response> {
  const caller = requireCaller(ctx);
  const target = req.target;
  if (target.case === "id") return testStored(deps, caller, target.value, ctx);
  if (target.case === "config") return testUnsaved(deps, target.value);
  throw invalidArgument("Give the id of a connector or a configuration to test.");
}

/** A stored connector's test also sets or clears its error status. */
async function testStored(
  deps: ConnectorServiceDeps,
  caller: Caller,
  id: string,
  ctx: HandlerContext,
): Promise<Response> {
  const { db, runtime } = deps;
  const row = await requireConnector(db, caller.tenantId, id);
  const { checks, policyTypes } = await runChecks(runtime, runtime.settingsOf(row));
  const failed = checks.find((c) => !c.ok);
  const fresh = (await findConnector(db, caller.tenantId, row.id)) ?? row;
  await db.transaction(async (tx) => {
    if (failed) {
      await updateConnector(tx, caller.tenantId, row.id, {
        status: "ERROR",
        lastError: `${failed.name}: ${failed.message}`,
      });
    } else if (fresh.status === "ERROR") {
      await updateConnector(tx, caller.tenantId, row.id, {
        status: fresh.lastSyncAt ? "CONNECTED" : "NEVER_SYNCED",
        lastError: null,
      });
    }
    await recordAudit(tx, ctx, {
      target: { type: "connector", id: row.id, name: row.name },
      before: { status: fresh.status },
      after: { ok: !failed, checks },
    });
  });
  return { ok: !failed, checks, policyTypes: policyTypes.map(policyTypeMessage) };
}

async function testUnsaved(deps: ConnectorServiceDeps, input: ConnectorConfig): Promise<Response> {
  const { runtime } = deps;
  const { kind, config, secret } = readConfig(input, undefined, runtime.sandbox() !== undefined);
  // An unsaved AWS configuration has no external id yet unless the caller copied one in.
  if ("externalId" in config && input.kind.case === "aws") {
    config.externalId = input.kind.value.externalId.trim();
    if (!config.externalId) {
      return {
        ok: false,
        checks: [
          {
            name: "Assume role",
            ok: false,
            message:
              "Create the connector first: its external id, which the role's trust policy must require, is generated then.",
          },
        ],
      };
    }
  }
  const { checks, policyTypes } = await runChecks(runtime, { kind, config, secret });
  return { ok: checks.every((c) => c.ok), checks, policyTypes: policyTypes.map(policyTypeMessage) };
}
