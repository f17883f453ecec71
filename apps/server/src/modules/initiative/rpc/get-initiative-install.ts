import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  GetInitiativeInstallRequest,
  GetInitiativeInstallResponseSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { findJobRecord, updateJobRecord } from "../../../jobs/job-record-repository";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { bundlesWithErrors, statusOfName } from "../../deployment/deployment-api";
import { type InstallRecord, JOB_KIND } from "../initiative-install";
import type { InitiativeServiceDeps } from "../tenant-initiatives";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The install's bundles and how far each one's deployment is; the record is closed once all are. */
export async function getInitiativeInstall(
  deps: InitiativeServiceDeps,
  req: GetInitiativeInstallRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetInitiativeInstallResponseSchema>> {
  const caller = requireCaller(ctx);
  const jobId = req.jobId.trim();
  if (!UUID.test(jobId)) throw invalidField("job_id", "not the id of an initiative install.");
  const job = await findJobRecord(deps.db, caller.tenantId, jobId);
  if (!job || job.kind !== JOB_KIND) throw new ConnectError("No such initiative install.", Code.NotFound);
  const record = job.result as InstallRecord;
  const rows = await bundlesWithErrors(deps.db, caller.tenantId, record.bundleIds);
  const ordered = record.bundleIds.flatMap((id) => rows.filter((row) => row.bundle.id === id));
  const final = (status: string) => status === "DEPLOYED" || status === "FAILED" || status === "DELETED";
  const deployed = ordered.filter((row) => row.bundle.status === "DEPLOYED").length;
  const failed = ordered.filter((row) => row.bundle.status === "FAILED").length;
  const total = job.total ?? record.bundleIds.length;
  const finished = record.bundleIds.length >= total && ordered.every((row) => final(row.bundle.status));
  // When the last bundle got where it was going: its row's last change.
  const finishedAt = finished
    ? new Date(Math.max(job.createdAt.getTime(), ...ordered.map((row) => row.bundle.updatedAt.getTime())))
    : undefined;
  const progress = total === 0 ? 100 : Math.floor(((deployed + failed) * 100) / total);
  if (job.status === "RUNNING" && (finished || progress !== job.progress)) {
    await updateJobRecord(deps.db, caller.tenantId, job.id, {
      progress,
      ...(finished
        ? {
            status: failed > 0 ? "FAILED" : "SUCCEEDED",
            error: failed > 0 ? `${failed} of ${total} bundles failed to deploy.` : null,
            finishedAt,
          }
        : {}),
    });
  }
  return {
    jobId: job.id,
    initiativeSlug: record.initiativeSlug,
    finished,
    total,
    deployed,
    failed,
    bundles: ordered.map(({ bundle, errorMessage }) => ({
      bundleId: bundle.id,
      key: bundle.key,
      policySlug: bundle.policySlug,
      name: bundle.name,
      status: statusOfName(bundle.status),
      errorMessage: bundle.status === "FAILED" ? errorMessage : "",
    })),
    startedAt: timestampFromDate(job.createdAt),
    finishedAt: finishedAt ? timestampFromDate(finishedAt) : undefined,
  };
}
