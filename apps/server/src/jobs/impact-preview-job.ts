import type { JobDefinition, JobQueue } from "./job-queue";

export const IMPACT_PREVIEW_JOB = "impact-preview.run";

export interface ImpactPreviewPayload {
  tenantId: string;
  /** Row of `impact_previews` to fill. */
  previewId: string;
}

/** Replays the recent audit stream against a policy into its preview row. */
export function enqueueImpactPreview(jobs: JobQueue, payload: ImpactPreviewPayload): Promise<string | null> {
  return jobs.send<ImpactPreviewPayload>(IMPACT_PREVIEW_JOB, payload);
}

export function impactPreviewWorker(deps: {
  run(payload: ImpactPreviewPayload): Promise<void>;
}): JobDefinition<ImpactPreviewPayload> {
  return {
    name: IMPACT_PREVIEW_JOB,
    // The run records a cloud failure in the row itself; a retry is for a crash or restart
    // mid-replay, which starts the replay over.
    retryLimit: 2,
    retryDelaySeconds: 5,
    // 90 days of a busy organisation is a few thousand pages at CloudTrail's 2 requests/s.
    expireInSeconds: 3 * 3600,
    concurrency: 2,
    handler: ({ data }) => deps.run(data),
  };
}
