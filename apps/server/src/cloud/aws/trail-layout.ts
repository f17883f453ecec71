/**
 * Where an organisation trail puts its log files, as AWS documents it
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-find-log-files.html,
 * https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html):
 *
 *   <prefix>/AWSLogs/<org-id>/<account-id>/CloudTrail/<region>/YYYY/MM/DD/
 *     <account-id>_CloudTrail_<region>_<YYYYMMDDTHHmmZ>_<UniqueString>.json.gz
 *
 * The folder's date and the name's time are when the file was delivered; a file can hold records
 * written at any point before that time.
 */

const DAY_MS = 86_400_000;

/** The folder of one account's log files in one region. */
export interface TrailPrefix {
  orgId: string;
  accountId: string;
  region: string;
}

/** `<account-id>/<region>`: how a prefix is named in the position and the file ledger. */
export const prefixName = (p: Pick<TrailPrefix, "accountId" | "region">) => `${p.accountId}/${p.region}`;

/** The key prefix under which the trail writes `AWSLogs/`, with its trailing slash. */
export function logsRoot(keyPrefix: string): string {
  return keyPrefix ? `${keyPrefix}/AWSLogs/` : "AWSLogs/";
}

export function regionFolder(keyPrefix: string, p: TrailPrefix): string {
  return `${logsRoot(keyPrefix)}${p.orgId}/${p.accountId}/CloudTrail/${p.region}/`;
}

/** `YYYY/MM/DD` of a moment in UTC, as the trail names its day folders. */
export function dayOf(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 10).replaceAll("-", "/");
}

/** The day `days` after (or before, when negative) a `YYYY/MM/DD` day. */
export function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day.replaceAll("/", "-")}T00:00:00Z`) + days * DAY_MS);
}

const LOG_FILE = /^(\d{12})_CloudTrail_([a-z0-9-]+)_(\d{8}T\d{4}Z)_[A-Za-z0-9]+\.json\.gz$/;

/**
 * The day folder of a key under a region folder, when the key is a log file of that account and
 * region as AWS names them; undefined for anything else kept there.
 */
export function logFileDay(folder: string, p: TrailPrefix, key: string): string | undefined {
  if (!key.startsWith(folder)) return undefined;
  const rest = key.slice(folder.length).split("/");
  if (rest.length !== 4) return undefined;
  const [yyyy, mm, dd, name] = rest as [string, string, string, string];
  if (!/^\d{4}$/.test(yyyy) || !/^\d{2}$/.test(mm) || !/^\d{2}$/.test(dd)) return undefined;
  const match = LOG_FILE.exec(name);
  if (!match || match[1] !== p.accountId || match[2] !== p.region) return undefined;
  return `${yyyy}/${mm}/${dd}`;
}
