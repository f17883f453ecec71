import { issueAccessKey, updateRoleTrust } from "./aws/access-keys";
import { createAwsServices, type ThrottledService } from "./aws/aws-services";
import { createLookupRateLimit } from "./aws/cloudtrail";
import { handleEc2 } from "./aws/ec2";
import { handleIam } from "./aws/iam";
import { createOrganizationsFaults } from "./aws/organizations-faults";
import { handleS3 } from "./aws/s3/s3-api";
import type { S3Objects } from "./aws/s3/s3-objects";
import { awsServiceOf } from "./aws/service-of";
import { handleAdfs } from "./azure/adfs";
import { handleArm } from "./azure/arm";
import { type ArmLimits, AZURE_LIMITS, armError } from "./azure/arm-http";
import { type Refusal, takeRefusal } from "./azure/arm-refusals";
import { createArmThrottle } from "./azure/arm-throttle";
import { cloudMetadata } from "./azure/cloud-metadata";
import { directoryControl } from "./azure/directory-controls";
import { resourceProvider } from "./azure/resource-providers";
import { handleIdentity, verifyToken } from "./azure/token";
import { loadAliasTable } from "./enforce/azure-aliases";
import { tryAzure } from "./enforce/azure-try";
import { scanAssignment } from "./enforce/compliance-scan";
import {
  type PolicyPropagation,
  propagationControl,
  recordPolicyDelete,
  recordPolicyWrite,
  settlePropagation,
} from "./enforce/propagation";
import { tryAction } from "./enforce/try-action";
import { TryInputError } from "./enforce/try-types";
import { header, json, type SandboxRequest, type SandboxResponse } from "./http/types";
import type { AzureState, AzureSubscription, SubscriptionState } from "./state/model";
import type { StateStore } from "./state/store";

const RESOURCE_PATH =
  /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/(?!Microsoft\.Authorization\/)[^/]+\/[^/]+\/[^/]+$/i;

const POLICY_OBJECT_PATH =
  /\/providers\/Microsoft\.Authorization\/(policyAssignments|policyExemptions)\/[^/]+\/?$/i;

const SUBSCRIPTION_STATES: SubscriptionState[] = ["Enabled", "Disabled"];

const SERVICES: ThrottledService[] = ["organizations", "sts", "cloudtrail", "arm"];

export interface SandboxAppOptions {
  /** The organisation trail's bucket and any other S3 object. */
  objects: S3Objects;
  /** LookupEvents calls per second per account and Region (CloudTrail: 2). */
  lookupsPerSecond: number;
}

export interface SandboxApp {
  handle(req: SandboxRequest): Promise<SandboxResponse>;
}

/** The disabled subscription an ARM write falls under: Azure makes a disabled subscription read-only. */
function disabledSubscriptionOf(azure: AzureState, req: SandboxRequest): AzureSubscription | undefined {
  if (!["PUT", "PATCH", "DELETE"].includes(req.method.toUpperCase())) return undefined;
  const id = /^\/subscriptions\/([^/]+)/i.exec(req.path)?.[1]?.toLowerCase();
  return azure.subscriptions.find((s) => s.subscriptionId.toLowerCase() === id && s.state === "Disabled");
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

export function createSandboxApp(
  store: StateStore,
  info: () => Record<string, unknown>,
  propagation: PolicyPropagation,
  options: SandboxAppOptions,
): SandboxApp {
  const withinLookupRate = createLookupRateLimit(options.lookupsPerSecond);
  const throttle = new Map<ThrottledService, number>();
  const armThrottle = createArmThrottle();
  const organizationsFaults = createOrganizationsFaults();
  const refusals: Refusal[] = [];
  const limits: ArmLimits = { ...AZURE_LIMITS };

  const handleAws = createAwsServices(store, { throttle, organizationsFaults, withinLookupRate });

  const handleControl = async (req: SandboxRequest): Promise<SandboxResponse> => {
    let input: Record<string, unknown> = {};
    try {
      input = JSON.parse(req.body.toString() || "{}") as Record<string, unknown>;
    } catch {
      return json(400, { error: { code: "InvalidJson", message: "The body is not valid JSON." } });
    }
    if (req.path === "/sandbox/info" && req.method === "GET") return json(200, info());
    if (req.path === "/sandbox/try" && req.method === "POST") {
      const out = await tryAction(store, input);
      return json(out.httpStatus, out.body);
    }
    if (req.path === "/sandbox/control/clock") {
      if (req.method === "POST") {
        const advance = Number(input.advanceSeconds ?? 0);
        if (!Number.isFinite(advance) || advance < 0) {
          return json(400, {
            error: { code: "InvalidClock", message: "advanceSeconds must be a non-negative number." },
          });
        }
        store.state.clockOffsetMs += advance * 1000;
        store.changed();
      }
      return json(200, { now: store.now().toISOString(), offsetSeconds: store.state.clockOffsetMs / 1000 });
    }
    const directory = req.method === "POST" ? directoryControl(store, req.path, input) : undefined;
    if (directory) return directory;
    if (req.path === "/sandbox/control/propagation" && req.method === "POST")
      return propagationControl(propagation, input);
    if (req.path === "/sandbox/control/access-key" && req.method === "POST") {
      const key = issueAccessKey(store.state.aws, String(input.principal ?? ""), text(input.account));
      if (!key) {
        return json(404, {
          error: {
            code: "PrincipalNotFound",
            message: "principal must be an IAM user's ARN, or user/<name> with account (id or name).",
          },
        });
      }
      store.changed();
      return json(200, key);
    }
    if (req.path === "/sandbox/control/role-trust" && req.method === "POST") {
      const trust =
        typeof input.trustPolicy === "string" ? input.trustPolicy : JSON.stringify(input.trustPolicy);
      if (!updateRoleTrust(store.state.aws, String(input.roleArn ?? ""), trust ?? "")) {
        return json(404, {
          error: {
            code: "NoSuchEntity",
            message: "roleArn must name a role of the organisation; trustPolicy a JSON document.",
          },
        });
      }
      store.changed();
      return json(200, { roleArn: input.roleArn });
    }
    if (req.path === "/sandbox/control/throttle" && req.method === "POST") {
      const service = input.service as ThrottledService;
      const count = Number(input.count ?? 1);
      const retryAfterSeconds = Number(input.retryAfterSeconds ?? 1);
      if (
        !SERVICES.includes(service) ||
        !Number.isInteger(count) ||
        count < 0 ||
        !Number.isInteger(retryAfterSeconds) ||
        retryAfterSeconds < 0 ||
        (input.pathContains !== undefined && typeof input.pathContains !== "string")
      ) {
        return json(400, {
          error: {
            code: "InvalidThrottle",
            message: `service must be one of ${SERVICES.join(", ")}, count and retryAfterSeconds non-negative integers, pathContains a text.`,
          },
        });
      }
      if (service === "arm") {
        armThrottle.set({
          count,
          retryAfterSeconds,
          pathContains: input.pathContains as string | undefined,
          firstAttemptOnly: input.firstAttemptOnly === true,
        });
      } else throttle.set(service, count);
      return json(200, {
        ...Object.fromEntries(throttle),
        arm: armThrottle.left,
        armThrottledSoFar: armThrottle.answered,
      });
    }
    if (req.path === "/sandbox/control/organizations-fault" && req.method === "POST") {
      const refused = organizationsFaults.set(input);
      if (refused) return json(400, { error: { code: "InvalidFault", message: refused } });
      return json(200, { faults: organizationsFaults.pending() });
    }
    if (req.path === "/sandbox/control/refuse" && req.method === "POST") {
      const method = String(input.method ?? "").toUpperCase();
      const pathContains = String(input.pathContains ?? "").toLowerCase();
      const count = Number(input.count ?? 1);
      const status = Number(input.status ?? 409);
      if (
        !["GET", "PUT", "DELETE", "POST", "PATCH"].includes(method) ||
        pathContains === "" ||
        !Number.isInteger(count) ||
        count < 0 ||
        !Number.isInteger(status) ||
        status < 400 ||
        status > 499
      ) {
        return json(400, {
          error: {
            code: "InvalidRefusal",
            message:
              "method must be an HTTP method, pathContains a non-empty text, count a non-negative integer and status a 4xx code.",
          },
        });
      }
      refusals.splice(
        0,
        refusals.length,
        ...refusals.filter((r) => r.left > 0 && !(r.method === method && r.pathContains === pathContains)),
      );
      refusals.push({
        method,
        pathContains,
        left: count,
        status,
        code: String(input.code ?? "ScopeLocked"),
        message: String(
          input.message ??
            "The scope cannot perform delete operation because following scope(s) are locked. Please remove the lock and try again.",
        ),
      });
      return json(200, {
        refusals: refusals.map(({ method, pathContains, left }) => ({ method, pathContains, left })),
      });
    }
    if (req.path === "/sandbox/control/limits" && req.method === "POST") {
      // An empty body reads the limits; `null` restores Azure's own.
      for (const [name, value] of Object.entries(input)) {
        const limit = name as keyof ArmLimits;
        if (
          !(limit in AZURE_LIMITS) ||
          !(value === null || (Number.isInteger(value) && Number(value) >= 0))
        ) {
          return json(400, {
            error: {
              code: "InvalidLimit",
              message: `Limits are ${Object.keys(AZURE_LIMITS).join(", ")}, each a non-negative integer or null for Azure's own.`,
            },
          });
        }
      }
      for (const [name, value] of Object.entries(input)) {
        const limit = name as keyof ArmLimits;
        limits[limit] = value === null ? AZURE_LIMITS[limit] : Number(value);
      }
      return json(200, limits);
    }
    if (req.path === "/sandbox/control/subscription" && req.method === "POST") {
      // Its id (bare or as the ARM scope /subscriptions/{id}) or its name.
      const named = String(input.subscription ?? "")
        .toLowerCase()
        .replace(/^\/subscriptions\//, "");
      const state = input.state as SubscriptionState;
      if (!SUBSCRIPTION_STATES.includes(state)) {
        return json(400, {
          error: {
            code: "InvalidSubscriptionState",
            message: `state must be ${SUBSCRIPTION_STATES.join(" or ")}.`,
          },
        });
      }
      const subscription = store.state.azure.subscriptions.find(
        (s) => s.subscriptionId.toLowerCase() === named || s.displayName.toLowerCase() === named,
      );
      if (!subscription) {
        return json(404, {
          error: { code: "SubscriptionNotFound", message: `No subscription with the id or name '${named}'.` },
        });
      }
      subscription.state = state;
      store.changed();
      const { subscriptionId, displayName } = subscription;
      return json(200, { subscriptionId, displayName, state });
    }
    return json(404, { error: { code: "NotFound", message: `No sandbox route ${req.method} ${req.path}.` } });
  };

  /** ARM PUT/DELETE of a resource goes through the same policy evaluation as `try`. */
  const writeResource = async (req: SandboxRequest, objectId: string): Promise<SandboxResponse> => {
    let body: Record<string, unknown> | undefined;
    if (req.method === "PUT") {
      try {
        body = JSON.parse(req.body.toString() || "{}") as Record<string, unknown>;
      } catch {
        return armError(
          400,
          "InvalidRequestContent",
          "The request content was invalid and could not be deserialized.",
        );
      }
    }
    const existed = store.state.azure.resources.some((r) => r.id.toLowerCase() === req.path.toLowerCase());
    if (req.method === "DELETE" && !existed) return { status: 204 };
    try {
      const out = tryAzure(
        store,
        {
          principal: objectId,
          action: req.method === "PUT" ? "write" : "delete",
          resource: req.path,
          ...(body ? { body } : {}),
        },
        await loadAliasTable(),
      );
      if (!out.allowed) return json(403, { error: out.body.error });
      if (req.method === "DELETE") return { status: 200 };
      const resource = out.body.resource as Record<string, unknown>;
      return json(existed ? 200 : 201, {
        ...resource,
        properties: {
          ...((resource.properties as Record<string, unknown>) ?? {}),
          provisioningState: "Succeeded",
        },
      });
    } catch (err) {
      if (err instanceof TryInputError) return armError(404, "ResourceGroupNotFound", err.message);
      throw err;
    }
  };

  /** Assignments and exemptions whose delay has passed take effect; a new assignment's compliance scan starts. */
  const settle = async () => {
    const started = settlePropagation(store);
    if (started.length === 0) return;
    const aliases = await loadAliasTable();
    for (const id of started) scanAssignment(store, id, aliases);
  };

  /** A written or deleted assignment or exemption is enforced after the propagation delay. */
  const recordPolicyChange = (req: SandboxRequest, status: number) => {
    const kind = POLICY_OBJECT_PATH.exec(req.path)?.[1]?.toLowerCase();
    if (!kind || status >= 300) return;
    const key = kind === "policyassignments" ? "policyAssignments" : "policyExemptions";
    const id = req.path.replace(/\/+$/, "");
    if (req.method === "DELETE") return recordPolicyDelete(store, key, id);
    const stored = store.state.azure[key].find((o) => o.id.toLowerCase() === id.toLowerCase());
    if (req.method === "PUT" && stored) recordPolicyWrite(store, key, stored, propagation.seconds);
  };

  /** Microsoft Entra ID's and ARM's endpoints. */
  const handleAzure = async (req: SandboxRequest): Promise<SandboxResponse> => {
    const host = header(req, "host") ?? "127.0.0.1";
    const baseUrl = `${req.secure ? "https" : "http"}://${host}`;
    const identity =
      cloudMetadata(req, baseUrl) ??
      handleAdfs(store.state.azure, req, baseUrl) ??
      handleIdentity(store.state.azure, req, baseUrl);
    if (identity) return identity;
    const throttled = armThrottle.take(req);
    if (throttled) return throttled;
    const claims = verifyToken(store.state.azure, req);
    if (!claims) {
      return armError(401, "InvalidAuthenticationToken", "The access token is invalid or has expired.");
    }
    const refused = takeRefusal(refusals, req);
    if (refused) return armError(refused.status, refused.code, refused.message);
    const disabled = disabledSubscriptionOf(store.state.azure, req);
    if (disabled) {
      return armError(
        409,
        "ReadOnlyDisabledSubscription",
        `The subscription '${disabled.subscriptionId}' is disabled and therefore marked as read only. You cannot perform any write actions on this subscription until it is re-enabled.`,
      );
    }
    if (
      (req.method === "PUT" || req.method === "DELETE") &&
      RESOURCE_PATH.test(req.path) &&
      req.query.get("api-version")
    ) {
      return writeResource(req, claims.oid);
    }
    const provider =
      req.query.get("api-version") &&
      resourceProvider(store.state.azure, req, req.path.replace(/\/+$/, ""), await loadAliasTable());
    if (provider) return provider;
    const out = handleArm({ store, claims, baseUrl, limits }, req);
    recordPolicyChange(req, out.status);
    return out;
  };

  return {
    async handle(req) {
      await settle();
      if (req.path.startsWith("/sandbox/")) return handleControl(req);
      const awsService = awsServiceOf(req);
      if (awsService === "s3") return handleS3({ store, objects: options.objects }, req);
      if (awsService === "ec2") return handleEc2(store, req);
      if (awsService === "iam") return handleIam(store, req);
      if (awsService) return handleAws(req, awsService);
      // ARM answers with "the date that the request was processed" in the Date header
      // (https://github.com/Azure/azure-resource-manager-rpc/blob/master/v1.0/common-api-details.md#response-headers;
      // RFC 9110, section 6.6.1): here the sandbox's clock, which tests move forward.
      const out = await handleAzure(req);
      return { ...out, headers: { date: store.now().toUTCString(), ...out.headers } };
    },
  };
}
