import type { ServiceImpl } from "@connectrpc/connect";
import type { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import type { ConnectorServiceDeps } from "./connectors";
import { createConnector } from "./rpc/create-connector";
import { deleteConnector } from "./rpc/delete-connector";
import { getConnector } from "./rpc/get-connector";
import { getPolicySpace } from "./rpc/get-policy-space";
import { getSetupInstructions } from "./rpc/get-setup-instructions";
import { listConnectors } from "./rpc/list-connectors";
import { listHierarchy } from "./rpc/list-hierarchy";
import { syncHierarchy } from "./rpc/sync-hierarchy";
import { testConnector } from "./rpc/test-connector";
import { updateConnector } from "./rpc/update-connector";

export function createConnectorService(deps: ConnectorServiceDeps): ServiceImpl<typeof ConnectorService> {
  return {
    createConnector: (req, ctx) => createConnector(deps, req, ctx),
    testConnector: (req, ctx) => testConnector(deps, req, ctx),
    listConnectors: (req, ctx) => listConnectors(deps, req, ctx),
    getConnector: (req, ctx) => getConnector(deps, req, ctx),
    updateConnector: (req, ctx) => updateConnector(deps, req, ctx),
    deleteConnector: (req, ctx) => deleteConnector(deps, req, ctx),
    syncHierarchy: (req, ctx) => syncHierarchy(deps, req, ctx),
    listHierarchy: (req, ctx) => listHierarchy(deps, req, ctx),
    getSetupInstructions: (req, ctx) => getSetupInstructions(deps, req, ctx),
    getPolicySpace: (req, ctx) => getPolicySpace(deps, req, ctx),
  };
}
