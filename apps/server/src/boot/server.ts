import { existsSync } from "node:fs";
import { join } from "node:path";
import { createContextValues } from "@connectrpc/connect";
import { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { AuditService } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverAnalyticsService } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { allServices } from "@palisade/api/services";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import Fastify from "fastify";
import { holdingBackWork } from "../auth/after-answer";
import { addressAnswerFloorMs, answerNoSoonerThan } from "../auth/answer-time";
import type { Auth } from "../auth/auth";
import { authenticate } from "../auth/authenticate";
import { createCredentialFailureLog } from "../auth/credential-failure-log";
import type { PasswordPolicy } from "../auth/password-policy";
import { isSessionRead, withoutSessionTokens } from "../auth/session-listing";
import type { SocialSignInConfig } from "../auth/social-auth";
import type { TenantDirectory } from "../auth/tenant-directory";
import type { DatabaseHandle } from "../db/database";
import { dualProtocolServerFactory } from "../http/dual-protocol-server";
import { registerRequestLimits } from "../http/request-limits";
import { registerSecurityHeaders } from "../http/security-headers";
import { registerStaticWeb } from "../http/static-web";
import type { JobQueue } from "../jobs/job-queue";
import type { Logger } from "../logger";
import { createAccountService } from "../modules/account/account-service";
import { defineAuditExport } from "../modules/audit/audit-export";
import { createAuditService } from "../modules/audit/audit-service";
import { createConnectorService } from "../modules/connector/connector-service";
import type { ConnectorServiceDeps } from "../modules/connector/connectors";
import type { BundleEngine } from "../modules/deployment/bundle-engine";
import { defineBundleExport } from "../modules/deployment/bundle-export";
import { createDeploymentManagerService } from "../modules/deployment/deployment-service";
import { createWaiverFitCheck } from "../modules/deployment/waiver-fit";
import { defineEventExport } from "../modules/event/event-export";
import { createPolicyEventStoreService } from "../modules/event/event-service";
import type { ExportService } from "../modules/export/export-service";
import { createInitiativeService } from "../modules/initiative/initiative-service";
import { registerChatRoutes } from "../modules/notification/chat-routes";
import type { NotificationDeps } from "../modules/notification/notification-delivery";
import { createNotificationService } from "../modules/notification/notification-service";
import { createBundleCards } from "../modules/policy/policies";
import { createPolicyService } from "../modules/policy/policy-service";
import { createPolicyDefinitionService } from "../modules/policy-definition/policy-definition-service";
import type { RecommendationComputer } from "../modules/recommendation/recommendation-compute";
import { createRecommendationService } from "../modules/recommendation/recommendation-service";
import { createSsoService } from "../modules/sso/sso-service";
import { createTeamService } from "../modules/team/team-service";
import { createTenantService } from "../modules/tenant/tenant-service";
import { createWaiverAnalyticsService } from "../modules/waiver/waiver-analytics-service";
import { createWaiverService } from "../modules/waiver/waiver-service";
import { callContextKey } from "../rpc/call-context";
import { withIdempotencyKeys } from "../rpc/idempotency";
import type { RateLimiter } from "../rpc/rate-limiter";
import type { AnyServiceImpl } from "../rpc/service-impl";
import { createAuthInterceptor } from "./rpc/auth-interceptor";
import { registerConnectRoutes } from "./rpc/connect-routes";
import { createDatabaseUnavailableInterceptor, isDatabaseUnavailable } from "./rpc/database-unavailable";
import { createOriginCheck, requestOriginKey } from "./rpc/origin-check";
import { registerServices } from "./rpc/register-services";
import { registerServerReflection } from "./rpc/server-reflection";
import { createValidateInterceptor } from "./rpc/validate-interceptor";

export interface ServerDeps {
  database: DatabaseHandle;
  auth: Auth;
  /** Tenants, members and single sign-on, for authenticating calls. */
  tenants: TenantDirectory;
  logger: Logger;
  /** Connector secrets, cloud providers and the sandbox, for ConnectorService. */
  cloud: Omit<ConnectorServiceDeps, "db">;
  /** The policy catalogue, parsed and checked once at start-up. */
  catalogue: Catalogue;
  /** Background jobs (pg-boss): cloud side effects, fetching, exports. */
  jobs: JobQueue;
  /** Applies bundles to the cloud (also run by the deployment jobs). */
  engine: BundleEngine;
  /** CSV/JSON exports and their signed download links. */
  exports: ExportService;
  /** Public address of Palisade (waiver links in deny messages). */
  publicUrl: string;
  /** How long an invitation link stays valid. */
  invitationTtlHours: number;
  /** ALLOW_SIGN_UP: the sign-in page offers open sign-up. */
  allowSignUp: boolean;
  /** Rules for new passwords; also served to the sign-in and account pages. */
  passwordPolicy: PasswordPolicy;
  webDist: string;
  /** Fastify's trustProxy: whom to believe about the client address. */
  trustProxy: boolean | string[];
  /** Public (no sign-in) methods, per client address; buckets shared through the database. */
  publicRateLimiter: RateLimiter;
  /** Largest request body on any route, after decompression. */
  maxRequestBytes: number;
  /** Origins besides the public address whose pages may call RPCs with the session cookie. */
  trustedOrigins?: string[];
  /** Notification channels and the chat callbacks (Slack buttons and commands, Teams links). */
  notifications: NotificationDeps;
  /** Computes a tenant's recommendations (also run by the recommendation job). */
  recommendations: RecommendationComputer;
  /** Social providers turned on (the sign-in page's buttons) and identity providers on private addresses. */
  signIn: { socialSignIn: SocialSignInConfig; ssoTrustedOrigins: string[] };
}

/** Seconds a client is asked to wait while the database is unreachable (a restart takes a few). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Builds the HTTP server: RPCs, Better Auth, health, and the web app. */
export async function buildServer(deps: ServerDeps) {
  const { database, auth, catalogue } = deps;
  const db = database.db;
  const app = Fastify({
    loggerInstance: deps.logger,
    trustProxy: deps.trustProxy,
    bodyLimit: deps.maxRequestBytes,
    // HTTP/1.1 and cleartext HTTP/2 (gRPC clients) on one port.
    serverFactory: dualProtocolServerFactory,
  });
  registerSecurityHeaders(app, { publicUrl: deps.publicUrl });
  registerRequestLimits(app, deps.maxRequestBytes);
  const credentialFailures = createCredentialFailureLog(deps.logger);

  // Liveness: the process answers, whether or not the database does (a restart of the database
  // must not get every replica restarted too); the body says how the database is.
  app.get("/healthz", async (_req, reply) => {
    const ok = await database.ping();
    return reply.send({ status: "ok", database: { engine: database.engine, ok } });
  });

  // The password rules, for the forms that set a password; public like the sign-in page.
  app.get("/api/password-policy", async (_req, reply) =>
    reply.header("cache-control", "no-store").send(deps.passwordPolicy),
  );

  // Ready: the database answers and the server is not shutting down (a proxy stops sending).
  let draining = false;
  app.addHook("preClose", async () => {
    draining = true;
  });
  app.get("/readyz", async (_req, reply) => {
    const ok = !draining && (await database.ping());
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ready" : draining ? "stopping" : "unavailable" });
  });

  // SAML identity providers post their response as a form: passed on as it came.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, body, done) => done(null, body),
    );
    scope.route({
      method: ["GET", "POST"],
      url: "/api/auth/*",
      handler: async (request, reply) => {
        const url = new URL(request.url, `http://${request.headers.host ?? "localhost"}`);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        // Better Auth rate limits by client address; give it the one Fastify resolved.
        headers.set("x-forwarded-for", request.ip);
        // Mail and links for an address go out once the answer has been sent (after-answer.ts).
        const handling = holdingBackWork(() =>
          auth.handler(
            new Request(url, {
              method: request.method,
              headers,
              body:
                request.body === undefined
                  ? undefined
                  : typeof request.body === "string"
                    ? request.body
                    : JSON.stringify(request.body),
            }),
          ),
        );
        reply.raw.once("close", handling.answered);
        // An answer for an address leaves at the same time whether or not it has an account.
        const floorMs = addressAnswerFloorMs(url.pathname.slice("/api/auth".length));
        const response = await answerNoSoonerThan(floorMs, () =>
          handling.result.catch((error: unknown) => {
            if (isDatabaseUnavailable(error)) return Response.json({}, { status: 500 });
            throw error;
          }),
        );
        // The identity layer answers 500 when its database is down; the client is told to
        // come back, as the RPCs say `unavailable`.
        if (response.status >= 500 && !(await database.ping())) {
          return reply.status(503).header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS)).send({
            code: "DATABASE_UNAVAILABLE",
            message: "The database is unavailable. Try again in a moment.",
          });
        }
        reply.status(response.status);
        if (response.status === 401 && url.pathname.includes("/sign-in/")) {
          credentialFailures.record(request.ip, "sign-in refused");
        }
        response.headers.forEach((value, name) => {
          if (name !== "set-cookie") reply.header(name, value);
        });
        // The identity layer says when to come back as X-Retry-After only; HTTP clients read Retry-After.
        const retryAfter = response.headers.get("x-retry-after");
        if (response.status === 429 && retryAfter && !response.headers.has("retry-after")) {
          reply.header("retry-after", retryAfter);
        }
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header("set-cookie", cookies);
        if (response.ok && isSessionRead(url.pathname)) {
          reply.removeHeader("content-length");
          return reply.send(withoutSessionTokens(await response.text()));
        }
        return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
      },
    });
  });

  // The kinds of export this server writes (bundles, events, audit records); the export job
  // runs the same producers.
  defineBundleExport({ db, exports: deps.exports });
  defineEventExport(deps.exports, db);
  defineAuditExport(deps.exports, db);
  deps.exports.route(app);
  // Every path that acknowledges a waiver checks that the cloud's policy has room for it.
  const fits = createWaiverFitCheck({ catalogue, publicUrl: deps.publicUrl });
  registerChatRoutes(app, { ...deps.notifications, jobs: deps.jobs, logger: deps.logger, fits });

  const bundleCards = createBundleCards(db, catalogue, database.listen);
  app.addHook("onClose", () => bundleCards.close());
  const implementations = new Map<string, AnyServiceImpl>([
    [TenantService.typeName, createTenantService({ db })],
    [
      SsoService.typeName,
      createSsoService({
        db,
        publicUrl: deps.publicUrl,
        trustedOrigins: deps.signIn.ssoTrustedOrigins,
        socialSignIn: deps.signIn.socialSignIn,
      }),
    ],
    [AccountService.typeName, createAccountService({ db, allowSignUp: deps.allowSignUp })],
    [
      TeamService.typeName,
      createTeamService({
        db,
        auth,
        jobs: deps.jobs,
        publicUrl: deps.publicUrl,
        invitationTtlHours: deps.invitationTtlHours,
        passwordPolicy: deps.passwordPolicy,
      }),
    ],
    [ConnectorService.typeName, createConnectorService({ db, ...deps.cloud })],
    [PolicyDefinitionService.typeName, createPolicyDefinitionService({ db, catalogue })],
    [
      InitiativeService.typeName,
      createInitiativeService({
        db,
        runtime: deps.cloud.runtime,
        catalogue,
        jobs: deps.jobs,
        publicUrl: deps.publicUrl,
      }),
    ],
    [
      RecommendationService.typeName,
      createRecommendationService({
        db,
        runtime: deps.cloud.runtime,
        catalogue,
        jobs: deps.jobs,
        publicUrl: deps.publicUrl,
        computer: deps.recommendations,
      }),
    ],
    [
      PolicyEventStoreService.typeName,
      createPolicyEventStoreService({ db, jobs: deps.jobs, exports: deps.exports }),
    ],
    [PolicyService.typeName, createPolicyService({ db, catalogue, bundleCard: bundleCards.card })],
    [
      DeploymentManagerService.typeName,
      createDeploymentManagerService({ ...deps, db, runtime: deps.cloud.runtime }),
    ],
    [WaiverService.typeName, createWaiverService({ db, jobs: deps.jobs, fits, catalogue })],
    [WaiverAnalyticsService.typeName, createWaiverAnalyticsService({ db })],
    [AuditService.typeName, createAuditService({ db, exports: deps.exports })],
    [
      NotificationService.typeName,
      createNotificationService({ ...deps.notifications, jobs: deps.jobs, fits }),
    ],
  ]);
  await registerConnectRoutes(app, {
    logger: deps.logger,
    routes: (router) => {
      registerServices(router, withIdempotencyKeys(db, implementations));
      registerServerReflection(router, allServices);
    },
    interceptors: [
      createDatabaseUnavailableInterceptor(),
      createAuthInterceptor({
        authenticate: (headers) => authenticate(headers, { auth, db, tenants: deps.tenants }),
        publicRateLimiter: deps.publicRateLimiter,
        isTrustedOrigin: createOriginCheck([deps.publicUrl, ...(deps.trustedOrigins ?? [])]),
        credentialFailures,
      }),
      // After authentication, so an anonymous caller of a private method learns nothing more.
      createValidateInterceptor(),
    ],
    contextValues: (request) =>
      createContextValues()
        .set(callContextKey, { caller: undefined, ip: request.ip })
        .set(requestOriginKey, `${request.protocol}://${request.host}`),
    jsonOptions: { ignoreUnknownFields: false },
    readMaxBytes: deps.maxRequestBytes,
  });

  if (existsSync(join(deps.webDist, "index.html"))) {
    await registerStaticWeb(app, deps.webDist);
  } else {
    deps.logger.warn({ webDist: deps.webDist }, "web app not built; run `npm run build` to serve it");
  }

  return app;
}
