import type { EventData } from "@azure/arm-monitor";
import type { AzureClients, PageSettings } from "./azure-clients";

const ACTIVITY_LOG_API_VERSION = "2015-04-01";

/**
 * The Activity Log of one subscription, page by page; `answered` is told ARM's time of each answer. arm-monitor's `byPage()` takes no
 * continuation token, so a throttled page could not be asked again; the list is read as ARM
 * documents it (`value` + `nextLink`, followed with GET):
 * https://learn.microsoft.com/en-us/rest/api/monitor/activity-logs/list
 */
export async function* activityLogPages(
  clients: AzureClients,
  subscriptionId: string,
  filter: string,
  settings: PageSettings,
  answered: (at: Date) => void = () => {},
): AsyncIterable<EventData[]> {
  const query = new URLSearchParams({ "api-version": ACTIVITY_LOG_API_VERSION, $filter: filter });
  const pages = clients.nextLinkPages<Record<string, unknown>>(
    {
      url: `${clients.armEndpoint}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.Insights/eventtypes/management/values?${query}`,
      method: "GET",
      nextLinkName: "nextLink",
    },
    settings,
  );
  for await (const page of pages) {
    if (page.answeredAt) answered(page.answeredAt);
    yield Object.assign(page.map(eventData), { continuationToken: tokenOf(page) });
  }
}

const tokenOf = (page: unknown) => (page as { continuationToken?: string }).continuationToken;

/** The JSON of an entry as arm-monitor gives it: the same names, its times as dates. */
function eventData(json: Record<string, unknown>): EventData {
  const date = (value: unknown) => (typeof value === "string" ? new Date(value) : undefined);
  return {
    ...json,
    eventTimestamp: date(json.eventTimestamp),
    submissionTimestamp: date(json.submissionTimestamp),
  } as EventData;
}
