import { Code, ConnectError } from "@connectrpc/connect";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { impactPreviewMessage } from "../impact-preview-message";
import { findImpactPreview } from "../impact-preview-repository";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function getImpactPreview({ db }: DeploymentServiceDeps): DeploymentRpc["getImpactPreview"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    if (!req.id) throw invalidField("id", "required.");
    const row = UUID.test(req.id) ? await findImpactPreview(db, caller.tenantId, req.id) : undefined;
    if (!row) throw new ConnectError("No impact preview with this id in this tenant.", Code.NotFound);
    return { preview: impactPreviewMessage(row) };
  };
}
