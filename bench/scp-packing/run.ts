import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import {
  DEFAULT_SCP_LIMITS,
  LOWER_SCP_LIMITS,
  type PackGuardrail,
  packScps,
  type ScpLimits,
} from "@palisade/policy-engine/compilers/aws/pack-scps";
import { POLICY_KEY_ALPHABET } from "@palisade/policy-engine/keys/policy-key";

// How many of the catalogue's AWS guardrails fit on one OU that already has one SCP Palisade did
// not create (FullAWSAccess), and how full each packed SCP is.

const OU = "ou-ab12-11111111";
const FOREIGN = 1;
const catalogue = parseCatalogue(readCatalogueFiles());
const aws = catalogue.definitions.filter((d) => d.enforcer === "aws_scp");

const keyOf = (i: number) =>
  Array.from({ length: 7 }, (_, p) => POLICY_KEY_ALPHABET[Math.floor(i / 32 ** p) % 32]).join("");

const guardrails: PackGuardrail[] = [];
let separate = 0;
aws.forEach((definition, i) => {
  const compiled = compileScp({
    definition,
    definitions: catalogue.bySlug,
    parameters: {},
    mode: "PREVENT",
    key: keyOf(i),
    name: definition.display_name,
    scopes: [{ id: OU }],
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "https://palisade.example.com",
    now: new Date(),
  });
  separate += compiled.content.length;
  guardrails.push({ key: keyOf(i), slug: definition.slug, content: compiled.content });
});

const header = ["limits", "guardrails fitted", "SCPs used", "characters per SCP", "pack time"];
const rows: string[][] = [];
for (const [label, limits] of [
  ["default (10 SCPs x 10,240)", DEFAULT_SCP_LIMITS],
  ["before May 2026 (5 SCPs x 5,120)", LOWER_SCP_LIMITS],
] as [string, ScpLimits][]) {
  const start = performance.now();
  const result = packScps({ target: OU, guardrails, limits, foreign: FOREIGN });
  const ms = performance.now() - start;
  const placed = result.packs.reduce((n, p) => n + p.keys.length, 0);
  rows.push([
    label,
    `${placed} of ${guardrails.length}`,
    `${result.packs.length} + ${FOREIGN} foreign of ${limits.perTarget}`,
    result.packs.map((p) => `${p.content.length} (${p.keys.length})`).join(", "),
    `${ms.toFixed(1)} ms`,
  ]);
  if (placed < guardrails.length) process.exitCode = 1;
}

const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((cells) => cells[column]!.length)),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
console.log(
  `SCP packing: every AWS guardrail of the catalogue (${guardrails.length}, default parameters) on one OU with ${FOREIGN} foreign SCP attached; ` +
    `separate SCPs would total ${separate.toLocaleString("en-US")} characters`,
);
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const cells of rows) console.log(line(cells));
console.log("characters per SCP: length of each packed SCP (guardrails in it)");
