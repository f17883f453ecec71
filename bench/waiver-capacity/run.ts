import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { DEFAULT_SCP_LIMITS, LOWER_SCP_LIMITS } from "@palisade/policy-engine/compilers/aws/pack-scps";
import {
  MAX_COUNTED_WAIVERS,
  principalWaiverCapacity,
} from "@palisade/policy-engine/compilers/aws/waiver-capacity";
import { waiverWindowEnd } from "@palisade/policy-engine/compilers/aws/waiver-window";

// How many principal waivers each AWS guardrail of the catalogue (default parameters) carries alone
// in its packed SCP: with one end per waiver (as before shared windows), with 8-hour waivers
// requested every 10 minutes (six per hourly window), and with every waiver in one window.

const HOUR = 3_600_000;
const NOW = new Date("2026-03-02T08:00:00Z");
const catalogue = parseCatalogue(readCatalogueFiles());
const aws = catalogue.definitions.filter((d) => d.enforcer === "aws_scp");

const scenarios: [string, (i: number) => Date][] = [
  ["one end each", (i) => new Date(NOW.getTime() + 8 * HOUR + (i + 1) * 60_000)],
  ["every 10 min", (i) => waiverWindowEnd(new Date(NOW.getTime() + i * 10 * 60_000), 8 * HOUR)],
  ["one window", () => waiverWindowEnd(NOW, 8 * HOUR)],
];

const header = ["guardrail", ...scenarios.map(([label]) => label), "one window, 5,120-character quota"];
const rows: string[][] = [];
for (const definition of aws) {
  const input = {
    definition,
    definitions: catalogue.bySlug,
    parameters: {},
    mode: "PREVENT" as const,
    key: "7KQ2M9X",
    name: definition.display_name,
    scopes: [{ id: "ou-ab12-11111111" }],
    excludedScopes: [],
    waiverLinkBaseUrl: "https://palisade.example.com",
    now: NOW,
  };
  const shown = (n: number) => (n >= MAX_COUNTED_WAIVERS ? `${n}+` : String(n));
  rows.push([
    definition.slug,
    ...scenarios.map(([, endOf]) => shown(principalWaiverCapacity(input, DEFAULT_SCP_LIMITS, endOf))),
    shown(principalWaiverCapacity(input, LOWER_SCP_LIMITS, scenarios[2]![1])),
  ]);
}

const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((cells) => cells[column]!.length)),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
console.log(
  `Principal waivers that fit one AWS guardrail alone in its SCP (${aws.length} guardrails, default parameters, ` +
    `10,240 characters; last column: 5,120, the quota before May 2026)`,
);
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const cells of rows) console.log(line(cells));
