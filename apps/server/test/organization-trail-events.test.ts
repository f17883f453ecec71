import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsProvider } from "../src/cloud/aws/aws-provider";
import type { TrailSettings } from "../src/cloud/aws/trail-s3";
import { createLogger } from "../src/logger";
import type { ConnectorRuntime } from "../src/modules/connector/connector-runtime";
import { connectors, hierarchyNodes } from "../src/modules/connector/connector-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { createEventPipeline } from "../src/modules/event/event-pipeline";
import { trailFiles } from "../src/modules/event/trail-file-schema";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { type MotoServer, motoAvailable, startMotoServer } from "./support/moto-server";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";
import {
  cloudTrailRecord,
  createTrailBucketIn,
  gzipLogFile,
  logFileKey,
  ORG_ID,
  putObject,
  TEST_KEYS,
  testS3,
} from "./support/trail-objects";

// End to end: organisation-trail files in moto's S3 -> trail reader -> classification -> Events.

const { catalogue } = loadCatalogue();
const MANAGEMENT = "111111111111";
const MEMBER = "222222222222";
const ROOT = "r-ab12";
const OU = "ou-ab12-workload";
const SCP_ID = "p-examplescp1";
const SLUG = "protect-s3-account-public-access-block";
const BUCKET = "palisade-org-trail";

describe.skipIf(!motoAvailable()).each(engines)("organisation trail events on %s", (engine) => {
  let server: TestServer;
  let moto: MotoServer;
  let viewer: Credentials;
  let tenantId: string;
  let connectorId: string;
  let bundleId: string;
  const db = () => server.palisade.database.db;
  const trail: TrailSettings = {
    bucket: BUCKET,
    keyPrefix: "",
    bucketRegion: "us-east-1",
    readerRoleArn: "arn:aws:iam::444444444444:role/palisade-trail-reader",
    readerExternalId: "",
    backfillDays: 7,
  };

  const pipeline = (settings: TrailSettings) => {
    const provider = createAwsProvider({
      endpoint: moto.url,
      region: "us-east-1",
      roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
      externalId: "palisade-test",
      managementAccountId: MANAGEMENT,
      consoleLinks: false,
      baseCredentials: TEST_KEYS,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
      trail: settings,
    });
    const runtime = { providerFor: () => provider } as unknown as ConnectorRuntime;
    return createEventPipeline({ db: db(), runtime, catalogue, logger: createLogger("silent") });
  };

  beforeAll(async () => {
    moto = await startMotoServer();
    server = await startTestServer(engine);
    tenantId = server.defaultTenantId;
    viewer = (await server.addMember({ role: "VIEWER" })).credentials;
    const [connector] = await db()
      .insert(connectors)
      .values({
        tenantId,
        name: "Organisation",
        kind: "aws",
        status: "CONNECTED",
        config: {
          provider: "aws",
          managementAccountId: MANAGEMENT,
          roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
          externalId: "palisade-test",
          region: "us-east-1",
          trail,
        },
      })
      .returning();
    connectorId = connector!.id;
    await db()
      .insert(hierarchyNodes)
      .values(
        [
          { externalId: ROOT, parentExternalId: null, name: "Root", type: "AWS_ORGANIZATION_ROOT" },
          { externalId: OU, parentExternalId: ROOT, name: "Workloads", type: "AWS_OU" },
          { externalId: MANAGEMENT, parentExternalId: ROOT, name: "Management", type: "AWS_ACCOUNT" },
          { externalId: MEMBER, parentExternalId: OU, name: "Production", type: "AWS_ACCOUNT" },
        ].map((n) => ({ ...n, tenantId, connectorId, provider: "aws" })),
      );
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key: "s3-public-access",
        name: "S3 public access block",
        policySlug: SLUG,
        provider: "aws",
        mode: "PREVENT",
        status: "DEPLOYED",
        scopes: [{ externalId: ROOT, name: "Root" }],
        affectedResourceTypes: [],
        createdBy: "test",
      })
      .returning();
    bundleId = bundle!.id;
    await db()
      .insert(deployments)
      .values({
        tenantId,
        bundleId,
        key: "s3-public-access",
        connectorId,
        scope: { externalId: ROOT, name: "Root" },
        scopeExternalId: ROOT,
        mode: "PREVENT",
        status: "DEPLOYED",
        policySlug: SLUG,
        name: "S3 public access block",
        nativeId: SCP_ID,
        createdBy: "test",
      });
  });
  afterAll(async () => {
    await server?.stop();
    await moto?.stop();
  });

  it("a member account's denial in another region appears in Events, attributed to its account and region", async () => {
    const s3 = testS3(moto.url);
    await createTrailBucketIn(s3, BUCKET);
    const now = Date.now();
    // An SCP denial as AWS writes it in the member account's CloudTrail, in eu-west-1
    // (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
    const denial = cloudTrailRecord({
      account: MEMBER,
      region: "eu-west-1",
      time: new Date(now - 9 * 60_000),
      eventSource: "s3.amazonaws.com",
      eventName: "PutAccountPublicAccessBlock",
      errorCode: "AccessDenied",
      errorMessage: `User: arn:aws:sts::${MEMBER}:assumed-role/Deployer/deploy-session is not authorized to perform: s3:PutAccountPublicAccessBlock with an explicit deny in a service control policy: arn:aws:organizations::${MANAGEMENT}:policy/${ORG_ID}/service_control_policy/${SCP_ID}`,
      requestParameters: { accountId: MEMBER },
    });
    await putObject(
      s3,
      BUCKET,
      logFileKey("", MEMBER, "eu-west-1", new Date(now - 5 * 60_000)),
      gzipLogFile([denial]),
    );
    await putObject(
      s3,
      BUCKET,
      logFileKey("", MANAGEMENT, "us-east-1", new Date(now - 5 * 60_000)),
      gzipLogFile([
        cloudTrailRecord({ account: MANAGEMENT, region: "us-east-1", time: new Date(now - 6 * 60_000) }),
      ]),
    );
    const corruptKey = logFileKey("", MEMBER, "us-east-1", new Date(now - 4 * 60_000));
    await putObject(s3, BUCKET, corruptKey, new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]));

    const outcome = await pipeline(trail).fetchConnector(connectorId);
    expect(outcome).toMatchObject({ records: 2, events: 1 });

    const { items } = await server
      .client(PolicyEventStoreService, viewer)
      .listEvents({ filter: { type: [EventType.PREVENTION], policyId: bundleId } });
    expect(items).toHaveLength(1);
    const event = items[0]!;
    expect(event.resource?.scope?.externalId).toBe(MEMBER);
    expect(event.resource?.details?.externalId).toBe(MEMBER);
    const audit = event.audits[0]!;
    expect(audit.id).toBe(denial.eventID);
    expect(audit.raw).toMatchObject({ awsRegion: "eu-west-1", recipientAccountId: MEMBER });

    // The unreadable file is named on the connector, and read again on the next fetch.
    const { connector } = await server.client(ConnectorService, viewer).getConnector({ id: connectorId });
    expect(connector?.eventsError).toMatch(/^TRAIL_FILES_RETRYING: 1 log file\(s\).*TRAIL_FILE_CORRUPT/s);
    const again = await pipeline(trail).fetchConnector(connectorId);
    expect(again).toMatchObject({ records: 0, events: 0 });
    const [ledger] = await db().select().from(trailFiles).where(eq(trailFiles.key, corruptKey));
    expect(ledger).toMatchObject({ state: "failed", attempts: 2 });
  });

  it("a bucket that does not exist is named on the connector and the position stays", async () => {
    const [before] = await db().select().from(connectors).where(eq(connectors.id, connectorId));
    await expect(
      pipeline({ ...trail, bucket: "palisade-missing-trail" }).fetchConnector(connectorId),
    ).rejects.toMatchObject({
      code: "TRAIL_BUCKET_NOT_FOUND",
    });
    const [after] = await db().select().from(connectors).where(eq(connectors.id, connectorId));
    expect(after?.eventCursor).toBe(before?.eventCursor);
    const { connector } = await server.client(ConnectorService, viewer).getConnector({ id: connectorId });
    expect(connector?.eventsError).toMatch(
      /^TRAIL_BUCKET_NOT_FOUND: The bucket palisade-missing-trail does not exist/,
    );
  });
});
