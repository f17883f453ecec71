import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  GetImpactPreviewRequest,
  GetImpactPreviewResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { impactPreviewMessage } from "../impact-preview-message";
import { findImpactPreview } from "../impact-preview-repository";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getImpactPreview(
  { db }: DeploymentServiceDeps,
  req: GetImpactPreviewRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetImpactPreviewResponseSchema>> {
  const caller = requireCaller(ctx);
  if (!req.id) throw invalidField("id", "required.");
  const row = UUID.test(req.id) ? await findImpactPreview(db, caller.tenantId, req.id) : undefined;
  if (!row) throw new ConnectError("No impact preview with this id in this tenant.", Code.NotFound);
  return { preview: impactPreviewMessage(row) };
}
