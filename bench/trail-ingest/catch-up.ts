import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { constants, gzipSync } from "node:zlib";
import { findConnectorAnyTenant } from "../../apps/server/src/modules/event/fetch-repository";
import { fetchOrganizationTrail } from "../../apps/server/src/modules/event/trail-fetch";
import { logFileKey } from "../../apps/server/test/support/trail-objects";
import { record } from "../support/results";
import {
  BUCKET,
  benchProvider,
  denialMessage,
  memberAccounts,
  openBenchOrganisation,
  startFileS3,
} from "./setup";

/**
 * Catch-up of a day of an organisation's trail: every account delivers a log file per region
 * every 5 minutes (288 a day), as CloudTrail does for a busy account, with BENCH_CATCHUP_RECORDS
 * records in all (default 5,000,000: a day of a 100-account organisation), 0.1% of them SCP
 * denials. The files are written once into a temporary directory served by the file-backed S3
 * endpoint; then one event fetch of a connector that has read nothing yet reads them all (list,
 * get, gunzip, parse, classify, store in PGlite), and the time it takes is the catch-up time.
 *   BENCH_CATCHUP_ACCOUNTS (100) x 2 regions x 288 files; budget: 5 minutes.
 */
const TOTAL = Number(process.env.BENCH_CATCHUP_RECORDS ?? 5_000_000);
const ACCOUNTS = Number(process.env.BENCH_CATCHUP_ACCOUNTS ?? 100);
const REGIONS = ["us-east-1", "eu-west-1"];
const FILES_PER_DAY = 288;
const DENIAL_EVERY = 1000;
const BUDGET_S = 300;
/** Callers per account (roles of people and workloads) and what they call. */
const ROLES = ["Deployer", "Developer", "ReadOnly", "Ops", "ci-runner", "lambda-exec", "ecs-task", "Audit"];
const CALLS = [
  ["ec2.amazonaws.com", "DescribeInstances", `{"filterSet":{"items":[{"name":"instance-state-name"}]}}`],
  ["s3.amazonaws.com", "GetBucketLocation", `{"bucketName":"logs","Host":"logs.s3.amazonaws.com"}`],
  ["sts.amazonaws.com", "AssumeRole", `{"roleSessionName":"s","durationSeconds":3600}`],
  ["kms.amazonaws.com", "Decrypt", `{"encryptionAlgorithm":"SYMMETRIC_DEFAULT"}`],
  ["logs.amazonaws.com", "CreateLogStream", `{"logGroupName":"/app","logStreamName":"s"}`],
  [
    "ec2.amazonaws.com",
    "RunInstances",
    `{"instancesSet":{"items":[{"imageId":"ami-0abcdef1234567890","minCount":1,"maxCount":1}]},"instanceType":"t3.micro","metadataOptions":{"httpTokens":"required"}}`,
  ],
] as const;

/** One record as a trail's log file holds it, written as text (the files are many). */
function recordText(account: string, region: string, time: Date, n: number): string {
  const role = ROLES[n % ROLES.length] as string;
  const denied = n % DENIAL_EVERY === 0;
  const [source, name, params] = denied
    ? ["s3.amazonaws.com", "PutAccountPublicAccessBlock", `{"accountId":"${account}"}`]
    : (CALLS[(n >> 3) % CALLS.length] as readonly [string, string, string]);
  const at = time.toISOString().replace(/\.\d{3}Z$/, "Z");
  const id = n.toString(16).padStart(12, "0");
  const error = denied
    ? `"errorCode":"AccessDenied","errorMessage":${JSON.stringify(denialMessage(account))},`
    : "";
  return `{"eventVersion":"1.09","userIdentity":{"type":"AssumedRole","principalId":"AROAEXAMPLE${account.slice(-6)}:s-${id}","arn":"arn:aws:sts::${account}:assumed-role/${role}/s-${id}","accountId":"${account}","accessKeyId":"ASIAEXAMPLEKEY","sessionContext":{"sessionIssuer":{"type":"Role","principalId":"AROAEXAMPLE","arn":"arn:aws:iam::${account}:role/${role}","accountId":"${account}","userName":"${role}"},"attributes":{"creationDate":"${at}","mfaAuthenticated":"false"}}},"eventTime":"${at}","eventSource":"${source}","eventName":"${name}","awsRegion":"${region}","sourceIPAddress":"203.0.113.10","userAgent":"aws-cli/2.15.0",${error}"requestParameters":${params},"responseElements":null,"requestID":"${id}-req","eventID":"00000000-0000-4000-8000-${id}","readOnly":false,"eventType":"AwsApiCall","managementEvent":true,"recipientAccountId":"${account}","eventCategory":"Management"}`;
}

const dir = mkdtempSync(join(tmpdir(), "palisade-trail-catchup-"));
const objects = join(dir, "objects");
const accounts = memberAccounts(ACCOUNTS);
const { handle, connectorId, deps } = await openBenchOrganisation(join(dir, "db"), accounts);
let stopS3 = async () => {};
try {
  // The day's files, delivered every 5 minutes up to now; records spread over the 5 minutes.
  const files = accounts.length * REGIONS.length * FILES_PER_DAY;
  const perFile = Math.ceil(TOTAL / files);
  const now = Date.now();
  const generating = performance.now();
  let n = 0;
  let bytes = 0;
  for (const account of accounts)
    for (const region of REGIONS)
      for (let f = 0; f < FILES_PER_DAY && n < TOTAL; f += 1) {
        const delivered = new Date(now - (FILES_PER_DAY - f) * 5 * 60_000);
        const texts: string[] = [];
        for (let i = 0; i < perFile && n < TOTAL; i += 1) {
          n += 1;
          texts.push(recordText(account, region, new Date(delivered.getTime() - (perFile - i) * 250), n));
        }
        // Level 1: the files are written once and only read in the measurement.
        const body = gzipSync(`{"Records":[${texts.join(",")}]}`, { level: constants.Z_BEST_SPEED });
        bytes += body.length;
        const path = join(objects, BUCKET, ...logFileKey("", account, region, delivered).split("/"));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, body);
      }
  const generatedS = (performance.now() - generating) / 1000;
  console.log(
    `generated ${n.toLocaleString("en")} records in ${files.toLocaleString("en")} files (${(bytes / 1e6).toFixed(0)} MB gzipped) in ${generatedS.toFixed(0)} s`,
  );
  const s3 = await startFileS3(objects);
  stopS3 = s3.stop;
  const provider = benchProvider(s3.url);
  const row = await findConnectorAnyTenant(deps.db, connectorId);
  if (!row || !provider.trail) throw new Error("no connector");

  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await fetchOrganizationTrail(deps, row, provider.trail);
  const seconds = (performance.now() - t0) / 1000;
  const cpuUsage = process.cpuUsage(cpu);
  provider.close();
  const expectedEvents = Math.floor(n / DENIAL_EVERY);
  if (outcome.records !== n) throw new Error(`read ${outcome.records} of ${n} records`);
  if (outcome.events !== expectedEvents)
    throw new Error(`stored ${outcome.events} events, expected ${expectedEvents}`);
  const rate = n / seconds;
  const pass = seconds <= BUDGET_S;
  record({
    group: "trail-ingest",
    figure: `catch-up of a day of a ${ACCOUNTS}-account organisation: ${n.toLocaleString("en")} records in ${files.toLocaleString("en")} files`,
    value: seconds * 1000,
    unit: "ms",
    budget: { kind: "max", value: BUDGET_S * 1000 },
    load: loadavg()[0],
  });
  console.log("| figure | value | budget |\n|---|---|---|");
  console.log(
    `| catch-up: ${n.toLocaleString("en")} records, ${files.toLocaleString("en")} files, ${ACCOUNTS} accounts x ${REGIONS.length} regions, ${outcome.events} events | ${seconds.toFixed(1)} s (${Math.round(rate).toLocaleString("en")} records/s; CPU ${((cpuUsage.user + cpuUsage.system) / 1e6).toFixed(1)} s; load average ${loadavg()[0]?.toFixed(1)}) | <= ${BUDGET_S} s ${pass ? "pass" : "FAIL"} |`,
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await handle.close();
  await stopS3();
  rmSync(dir, { recursive: true, force: true });
}
