import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { create, toBinary } from "@bufbuild/protobuf";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  InviteMemberRequestSchema,
  SendRequesterCodeRequestSchema,
  SignInRequesterRequestSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { percentile } from "../support/percentile";
import { DOMAIN, ORIGIN, POLICY_KEY } from "./shared";

/**
 * Whether the time an answer takes tells an address with an account from one without: every
 * endpoint that takes an address (sign-up last, as it gives the addresses without an account one)
 * is called CALLS times for addresses with an account and CALLS
 * times for addresses without (alternating, each address once, each call from its own client
 * address so no limit answers), against the server of server.ts in its own process. Budget: medians within 5 ms. Exits non-zero above it.
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const WARM_UP = 5;
const BUDGET_MS = 5;
/** Between calls, so work a call left running after its answer is not counted against the next. */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 30);

const total = CALLS + WARM_UP;
const child = spawn("npx", ["tsx", "address-timing/server.ts"], {
  cwd: new URL("..", import.meta.url).pathname,
  env: { ...process.env, BENCH_ACCOUNTS: String(total) },
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
const started = await new Promise<{
  url: string;
  known: { email: string; password: string }[];
  inviterToken: string;
}>((resolve, reject) => {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    const line = text.split("\n").find((l) => l.startsWith('{"url"'));
    if (line) resolve(JSON.parse(line));
  });
  child.on("exit", (code) => reject(new Error(`the server exited (${code})`)));
});
const { url, known, inviterToken } = started;
const unknown = Array.from({ length: total }, (_, i) => ({ email: `unknown-${i}@${DOMAIN}`, password: "x" }));

let client = 0;
function clientAddress(): string {
  client += 1;
  return `198.18.${Math.floor(client / 250)}.${(client % 250) + 1}`;
}

async function post(
  path: string,
  body: unknown,
  contentType = "application/json",
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": contentType, origin: ORIGIN, "x-forwarded-for": clientAddress(), ...headers },
    body: body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body),
  });
}

const only = process.env.BENCH_ONLY;
const endpoints: [string, (account: { email: string; password: string }) => Promise<Response>][] = (<
  [string, (account: { email: string; password: string }) => Promise<Response>][]
>[
  [
    "POST /api/auth/request-password-reset",
    (a) => post("/api/auth/request-password-reset", { email: a.email, redirectTo: "/reset-password" }),
  ],
  ["POST /api/auth/sign-in/magic-link", (a) => post("/api/auth/sign-in/magic-link", { email: a.email })],
  [
    "POST /api/auth/email-otp/send-verification-otp",
    (a) => post("/api/auth/email-otp/send-verification-otp", { email: a.email, type: "sign-in" }),
  ],
  ["POST /api/auth/enchanted-link/send", (a) => post("/api/auth/enchanted-link/send", { email: a.email })],
  ["POST /api/auth/whatsapp-link/send", (a) => post("/api/auth/whatsapp-link/send", { email: a.email })],
  [
    "POST /api/auth/sign-in/email (wrong password)",
    (a) => post("/api/auth/sign-in/email", { email: a.email, password: "not the password at all" }),
  ],
  [
    "TeamService/SendRequesterCode",
    (a) =>
      post(
        "/palisade.team.v1.TeamService/SendRequesterCode",
        toBinary(
          SendRequesterCodeRequestSchema,
          create(SendRequesterCodeRequestSchema, { email: a.email, policyKey: POLICY_KEY }),
        ),
        "application/proto",
      ),
  ],
  [
    "TeamService/SignInRequester (wrong code)",
    (a) =>
      post(
        "/palisade.team.v1.TeamService/SignInRequester",
        toBinary(
          SignInRequesterRequestSchema,
          create(SignInRequesterRequestSchema, { email: a.email, policyKey: POLICY_KEY, code: "000000" }),
        ),
        "application/proto",
      ),
  ],
  // Before sign-up, which gives the addresses without an account one.
  [
    "TeamService/InviteMember (administrator of another tenant)",
    (a) =>
      post(
        "/palisade.team.v1.TeamService/InviteMember",
        toBinary(
          InviteMemberRequestSchema,
          create(InviteMemberRequestSchema, { email: a.email, role: Role.VIEWER }),
        ),
        "application/proto",
        { authorization: `Bearer ${inviterToken}` },
      ),
  ],
  [
    "POST /api/auth/sign-up/email",
    (a) =>
      post("/api/auth/sign-up/email", {
        email: a.email,
        password: "a bench password long enough",
        name: "Bench",
      }),
  ],
]).filter(([name]) => !only || name.includes(only));

const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
async function timed(call: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const response = await call();
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
}

const rows: string[][] = [];
let failed = false;
for (const [name, call] of endpoints) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const statuses = new Set<string>();
  for (let i = 0; i < total; i += 1) {
    // Which kind goes first alternates, so work one call leaves running falls on both kinds alike.
    for (const kind of i % 2 === 0 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
      const account = (kind === "known" ? known : unknown)[i] as { email: string; password: string };
      const { ms, status } = await timed(() => call(account));
      statuses.add(`${kind} ${status}`);
      if (i >= WARM_UP) times[kind].push(ms);
      await pause();
    }
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  const [k, u] = [median(times.known), median(times.unknown)];
  const gap = Math.abs(k - u);
  const sameStatus = new Set([...statuses].map((s) => s.split(" ")[1])).size === 1;
  const ok = gap <= BUDGET_MS && sameStatus;
  failed ||= !ok;
  rows.push([
    name,
    k.toFixed(1),
    u.toFixed(1),
    gap.toFixed(1),
    [...statuses].join(", "),
    ok ? "pass" : "FAIL",
  ]);
}

const header = ["endpoint", "known p50 ms", "unknown p50 ms", "gap ms", "answers", `gap <= ${BUDGET_MS} ms`];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
console.log(
  `address timing: ${CALLS} calls per kind and endpoint, ${PAUSE_MS} ms apart, load ${loadavg()[0]?.toFixed(2)}`,
);
console.log(line(header));
for (const row of rows) console.log(line(row));

// Its own process group (npx and the server under it): stopped together.
if (child.pid) process.kill(-child.pid, "SIGTERM");
process.exit(failed ? 1 : 0);
