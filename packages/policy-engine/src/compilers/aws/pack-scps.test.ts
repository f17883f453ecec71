import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { awsDefinition, bundle, NOW } from "../../../test/bundles";
import { evaluatePolicySet } from "../../evaluators/scp/evaluate-scp";
import { validateScpDocument } from "../../evaluators/scp/validate-scp-document";
import { compileScp } from "./compile-scp";
import {
  DEFAULT_SCP_LIMITS,
  guardrailStatements,
  keyOfSid,
  keysOfContent,
  LOWER_SCP_LIMITS,
  type PackGuardrail,
  packScps,
  parsePackName,
  SCP_OVERHEAD,
} from "./pack-scps";
import { type CurrentPack, planRepack, type RepackStep } from "./plan-repack";

const TARGET = "ou-ab12-11111111";
const GOLDEN = new URL("../__golden__/aws-packed-three-guardrails-with-waiver.json", import.meta.url);

function guardrail(
  key: string,
  slug: string,
  extra: Partial<Parameters<typeof bundle>[0]> = {},
): PackGuardrail {
  const compiled = compileScp(
    bundle({ definition: awsDefinition(slug), key, scopes: [{ id: TARGET }], ...extra }),
  );
  return { key, slug, content: compiled.content };
}

const three = () => [
  guardrail("7KQ2M9X", "deny-leave-organization"),
  guardrail("A1B2C3D", "deny-regions-outside-allowlist", {
    parameters: { allowed_regions: ["eu-west-1", "eu-central-1"] },
  }),
  guardrail("Z9Y8X7W", "require-ec2-imdsv2", {
    waivers: [
      {
        id: "w-1",
        key: "Z9Y8X7W",
        expiresAt: new Date(NOW.getTime() + 86_400_000),
        principalArn: "arn:aws:iam::111122223333:role/LegacyBatch",
      },
    ],
  }),
];

/** A guardrail of exactly `size` characters in an SCP of its own. */
function sized(key: string, size: number): PackGuardrail {
  const base = {
    Effect: "Deny",
    Action: "s3:GetObject",
    Resource: "*",
    Condition: { StringEquals: { x: "" } },
  };
  const probe = guardrailStatements({ key, slug: "s", content: JSON.stringify({ Statement: [base] }) })[0]!;
  const pad = size - SCP_OVERHEAD - probe.length;
  const statement = { ...base, Condition: { StringEquals: { x: "a".repeat(pad) } } };
  return {
    key,
    slug: `sized-${size}`,
    content: JSON.stringify({ Version: "2012-10-17", Statement: [statement] }),
  };
}

describe("packing guardrails into SCPs", () => {
  it("matches the reviewed golden packed SCP: one valid document, every Sid carrying its key", () => {
    const result = packScps({ target: TARGET, guardrails: three(), limits: DEFAULT_SCP_LIMITS, foreign: 1 });
    expect(result.unplaced).toEqual([]);
    const actual = result.packs.map((p) => ({ ...p, content: JSON.parse(p.content) }));
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(GOLDEN), "run with UPDATE_GOLDEN=1 and review the file").toBe(true);
    expect(actual).toEqual(JSON.parse(readFileSync(GOLDEN, "utf8")));
    for (const pack of result.packs) {
      expect(validateScpDocument(pack.content).errors).toEqual([]);
      expect(pack.content.length).toBeLessThanOrEqual(DEFAULT_SCP_LIMITS.characters);
      for (const statement of JSON.parse(pack.content).Statement)
        expect(pack.keys).toContain(keyOfSid(statement.Sid));
    }
    expect(parsePackName(result.packs[0]!.name)).toEqual({ target: TARGET, slot: 0 });
  });

  it("is shorter than the separate SCPs and denies exactly what they deny, naming the key that denies", () => {
    const guardrails = three();
    const [pack] = packScps({ target: TARGET, guardrails, limits: DEFAULT_SCP_LIMITS, foreign: 1 }).packs;
    const separate = guardrails.reduce((sum, g) => sum + g.content.length, 0);
    expect(pack!.content.length).toBeLessThan(separate);
    const policy = (document: string) => ({ id: "p-1", arn: "", name: "x", document });
    const fullAccess = policy('{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}');
    const requests: { action: string; key: string; resource?: string; context: Record<string, string> }[] = [
      { action: "organizations:LeaveOrganization", key: "7KQ2M9X", context: {} },
      { action: "ec2:RunInstances", key: "A1B2C3D", context: { "aws:RequestedRegion": "us-east-1" } },
      {
        action: "ec2:RunInstances",
        key: "Z9Y8X7W",
        resource: "arn:aws:ec2:eu-west-1:444455556666:instance/i-0abc",
        context: { "aws:RequestedRegion": "eu-west-1", "ec2:MetadataHttpTokens": "optional" },
      },
    ];
    for (const request of requests) {
      const input = {
        action: request.action,
        resource: request.resource ?? "*",
        principalArn: "arn:aws:iam::444455556666:role/Dev",
        context: { "aws:CurrentTime": "2026-03-01T09:00:00Z", ...request.context },
      };
      const packed = evaluatePolicySet(input, [fullAccess, policy(pack!.content)]);
      expect(packed.decision).toBe("explicit_deny");
      expect(keyOfSid(packed.sid)).toBe(request.key);
      // The waiver of one guardrail still lets its principal through only for that guardrail.
      const waived = { ...input, principalArn: "arn:aws:iam::111122223333:role/LegacyBatch" };
      const decision = evaluatePolicySet(waived, [fullAccess, policy(pack!.content)]);
      expect(decision.decision === "explicit_deny").toBe(request.key !== "Z9Y8X7W");
    }
  });

  it("merges a guardrail's statements that differ only in their actions", () => {
    const statement = (action: string) => ({ Effect: "Deny", Action: action, Resource: "*" });
    const content = JSON.stringify({ Statement: [statement("s3:A"), statement("s3:B"), statement("s3:A")] });
    expect(guardrailStatements({ key: "7KQ2M9X", slug: "s", content })).toEqual([
      '{"Sid":"P7KQ2M9X0","Effect":"Deny","Action":["s3:A","s3:B"],"Resource":"*"}',
    ]);
  });

  it("is deterministic: the same guardrails in any order give the same SCPs", () => {
    const guardrails = ["AAAAAAA", "BBBBBBB", "CCCCCCC", "DDDDDDD", "EEEEEEE"].map((k, i) =>
      sized(k, 1500 + i * 300),
    );
    const run = (list: PackGuardrail[]) =>
      packScps({ target: TARGET, guardrails: list, limits: DEFAULT_SCP_LIMITS, foreign: 1 }).packs;
    expect(run([...guardrails].reverse())).toEqual(run(guardrails));
  });

  it("counts the SCPs Palisade did not create and reports by how much a guardrail is over", () => {
    // Under the quotas before May 2026 (5 SCPs of 5,120 characters), four guardrails of 5,000 fill
    // the 4 SCPs left beside FullAWSAccess; the fifth is refused.
    const guardrails = ["AAAAAAA", "BBBBBBB", "CCCCCCC", "DDDDDDD", "EEEEEEE"].map((k) => sized(k, 5000));
    const result = packScps({
      target: TARGET,
      targetName: "Workloads-Prod",
      guardrails,
      limits: LOWER_SCP_LIMITS,
      foreign: 1,
    });
    expect(result.packs.map((p) => p.content.length)).toEqual([5000, 5000, 5000, 5000]);
    expect(result.unplaced).toHaveLength(1);
    expect(result.unplaced[0]).toMatchObject({ key: "EEEEEEE", needed: 5000, over: 4842 });
    expect(result.unplaced[0]!.message).toContain("Workloads-Prod (ou-ab12-11111111)");
    expect(result.unplaced[0]!.message).toContain("4 of the 5 SCPs per target");
    // Two foreign SCPs leave three places; AWS's quotas leave eight of 10,240 characters.
    expect(
      packScps({ target: TARGET, guardrails, limits: LOWER_SCP_LIMITS, foreign: 2 }).unplaced,
    ).toHaveLength(2);
    const current = packScps({ target: TARGET, guardrails, limits: DEFAULT_SCP_LIMITS, foreign: 2 });
    expect(current.unplaced).toEqual([]);
    expect(current.packs.map((p) => p.keys.length)).toEqual([2, 2, 1]);
    // A guardrail larger than any SCP can be is over by its own excess.
    const huge = packScps({
      target: TARGET,
      guardrails: [sized("HHHHHHH", 5200)],
      limits: LOWER_SCP_LIMITS,
      foreign: 1,
    });
    expect(huge.unplaced[0]).toMatchObject({ needed: 5200, over: 80 });
    // Small ones fill the room a refused large one leaves.
    const mixed = packScps({
      target: TARGET,
      guardrails: [sized("AAAAAAA", 4000), sized("BBBBBBB", 5100), sized("CCCCCCC", 1000)],
      limits: { perTarget: 2, characters: 5120 },
      foreign: 1,
    });
    expect(mixed.packs.flatMap((p) => p.keys)).toEqual(["AAAAAAA", "CCCCCCC"]);
    expect(mixed.unplaced.map((u) => u.key)).toEqual(["BBBBBBB"]);
  });

  it("keeps guardrails where they were when a change still fits", () => {
    const guardrails = ["AAAAAAA", "BBBBBBB", "CCCCCCC"].map((k) => sized(k, 2000));
    const first = packScps({ target: TARGET, guardrails, limits: DEFAULT_SCP_LIMITS, foreign: 1 }).packs;
    const previous = new Map(first.flatMap((p) => p.keys.map((k) => [k, p.slot] as const)));
    const grown = [
      sized("AAAAAAA", 2000),
      sized("BBBBBBB", 2000),
      sized("CCCCCCC", 2000),
      sized("DDDDDDD", 900),
    ];
    const second = packScps({
      target: TARGET,
      guardrails: grown,
      limits: DEFAULT_SCP_LIMITS,
      foreign: 1,
      previous,
    });
    for (const pack of second.packs)
      for (const key of pack.keys) if (previous.has(key)) expect(previous.get(key)).toBe(pack.slot);
  });
});

/** Applies the steps one by one and checks that every guardrail that stays is in force after each. */
function replay(current: CurrentPack[], steps: RepackStep[], staying: string[]) {
  const live = new Map(current.map((c) => [c.slot, keysOfContent(c.content)]));
  const check = (after: string) => {
    const present = new Set([...live.values()].flat());
    for (const key of staying) expect(present.has(key), `${key} missing after ${after}`).toBe(true);
  };
  check("start");
  for (const step of steps) {
    if (step.op === "remove") live.delete(step.slot);
    else live.set(step.slot, keysOfContent(step.content));
    check(`${step.op} of slot ${step.slot}`);
  }
  return live;
}

describe("re-packing a target", () => {
  const pack = (guardrails: PackGuardrail[], limits = LOWER_SCP_LIMITS, previous?: Map<string, number>) =>
    packScps({ target: TARGET, guardrails, limits, foreign: 1, previous }).packs;
  const asCurrent = (packs: ReturnType<typeof pack>) =>
    packs.map((p) => ({ slot: p.slot, id: `p-${p.slot}`, content: p.content }));

  it("creates and rewrites SCPs that gain a guardrail before removing what is no longer needed", () => {
    const before = pack([sized("AAAAAAA", 3000), sized("BBBBBBB", 3000)]);
    const previous = new Map(before.flatMap((p) => p.keys.map((k) => [k, p.slot] as const)));
    const after = pack([sized("BBBBBBB", 3000)], undefined, previous);
    const steps = planRepack(asCurrent(before), after, 5120);
    expect(steps.map((s) => s.op)).toEqual(["remove"]);
    const grown = pack(
      [sized("AAAAAAA", 3000), sized("BBBBBBB", 3000), sized("CCCCCCC", 3000)],
      undefined,
      previous,
    );
    const growSteps = planRepack(asCurrent(before), grown, 5120);
    expect(growSteps.map((s) => s.op)).toEqual(["create"]);
    expect(planRepack(asCurrent(grown), grown, 5120)).toEqual([]);
  });

  it("never leaves a staying guardrail out, even when two SCPs exchange guardrails", () => {
    const a = sized("AAAAAAA", 2000);
    const b = sized("BBBBBBB", 2000);
    const current: CurrentPack[] = [
      { slot: 0, id: "p-0", content: pack([a])[0]!.content },
      { slot: 1, id: "p-1", content: pack([b])[0]!.content.replace(/"Sid":"P/g, '"Sid":"P') },
    ];
    // The packer now wants B in slot 0 and A in slot 1.
    const swapped = [
      { ...pack([b])[0]!, slot: 0 },
      { ...pack([a])[0]!, slot: 1 },
    ];
    const steps = planRepack(current, swapped, 5120);
    const live = replay(current, steps, ["AAAAAAA", "BBBBBBB"]);
    expect(live.get(0)).toEqual(["BBBBBBB"]);
    expect(live.get(1)).toEqual(["AAAAAAA"]);
  });

  it("moves a grown guardrail to another SCP without a moment where it is missing", () => {
    const start = [sized("AAAAAAA", 2500), sized("BBBBBBB", 2500), sized("CCCCCCC", 1000)];
    const before = pack(start);
    const previous = new Map(before.flatMap((p) => p.keys.map((k) => [k, p.slot] as const)));
    const after = pack(
      [sized("AAAAAAA", 2500), sized("BBBBBBB", 2500), sized("CCCCCCC", 4000)],
      undefined,
      previous,
    );
    const steps = planRepack(asCurrent(before), after, 5120);
    replay(asCurrent(before), steps, ["AAAAAAA", "BBBBBBB", "CCCCCCC"]);
  });

  it("reads keys back from Sids of packed and per-bundle SCPs", () => {
    expect(keyOfSid("P7KQ2M9X0")).toBe("7KQ2M9X");
    expect(keyOfSid("Palisade7KQ2M9XS0W1")).toBe("7KQ2M9X");
    expect(keyOfSid("FullAWSAccess")).toBeUndefined();
  });
});
