import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** Slack refuses requests older than five minutes; so does Palisade. */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;
/** How long the Approve / Reject links of a Teams card stay usable. */
export const TEAMS_TOKEN_TTL_MS = 24 * 60 * 60 * 1_000;

export type SlackCheck = { ok: true } | { ok: false; reason: string };

function equalText(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Slack's request signature: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` under
 * the app's signing secret, with a timestamp no more than five minutes away from now.
 */
export function verifySlackSignature(input: {
  signingSecret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  nowSeconds?: number;
}): SlackCheck {
  const { signingSecret, timestamp, signature, rawBody } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "no request timestamp" };
  if (!signature?.startsWith("v0=")) return { ok: false, reason: "no v0 signature" };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1_000);
  if (Math.abs(now - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) {
    return { ok: false, reason: "request timestamp too old" };
  }
  const expected = `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
  return equalText(expected, signature) ? { ok: true } : { ok: false, reason: "signature does not match" };
}

/** Signs as Slack does; for the clients Palisade's own tests run. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
}

export type ChatAction = "approve" | "reject";

export interface ChatTokenClaims {
  /** Single use: the token's row in chat_nonces. */
  nonce: string;
  tenantId: string;
  waiverId: string;
  action: ChatAction;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Tokens of the Teams card's buttons: the claims, base64url JSON, and an HMAC-SHA256 under a key
 * derived from the server key. The signature stops forgery; the nonce row makes it single-use.
 */
export function createChatTokens(serverKey: string) {
  const key = Buffer.from(
    hkdfSync("sha256", Buffer.from(serverKey, "utf8"), Buffer.alloc(0), "palisade/chat-tokens/v1", 32),
  );
  const mac = (body: string) => createHmac("sha256", key).update(body).digest("base64url");
  return {
    issue(
      claims: Omit<ChatTokenClaims, "nonce" | "expiresAt">,
      now = Date.now(),
    ): ChatTokenClaims & { token: string } {
      const full: ChatTokenClaims = {
        ...claims,
        nonce: randomBytes(18).toString("base64url"),
        expiresAt: now + TEAMS_TOKEN_TTL_MS,
      };
      const body = Buffer.from(JSON.stringify(full), "utf8").toString("base64url");
      return { ...full, token: `${body}.${mac(body)}` };
    },
    /** The claims of a well-signed token, expired or not; undefined for anything else. */
    read(token: string): ChatTokenClaims | undefined {
      const [body, signature, extra] = token.split(".");
      if (!body || !signature || extra !== undefined || !equalText(mac(body), signature)) return undefined;
      try {
        const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as ChatTokenClaims;
        if (claims.action !== "approve" && claims.action !== "reject") return undefined;
        return claims;
      } catch {
        return undefined;
      }
    },
  };
}

export type ChatTokens = ReturnType<typeof createChatTokens>;

/** A webhook URL as the settings page shows it: the host and the first characters of the path. */
export function webhookHint(url: string | undefined): string {
  if (!url) return "";
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 12 ? `${parsed.pathname.slice(0, 12)}…` : parsed.pathname;
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return "(unreadable)";
  }
}
