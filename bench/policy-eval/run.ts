import { evaluateAzureRequest } from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";
import { evaluatePolicyRule } from "@palisade/policy-engine/evaluators/azure/evaluate-policy-rule";
import { evaluatePolicySet, evaluateScpHierarchy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { record } from "../support/results";
import { aliases, assignments, resources, ruleParameters, rules } from "./azure-fixtures";
import { timeCatalogueCompile } from "./catalogue-compile";
import { fullAwsAccess, guardrails, hierarchy, requests } from "./scp-fixtures";

/** Budgets from design.md, "Budgets": per second on one core. */
const SCP_BUDGET = 100_000;
const AZURE_BUDGET = 50_000;
const RUN_MS = Number(process.env.BENCH_MS ?? 1500);

interface Row {
  scenario: string;
  unit: string;
  count: number;
  seconds: number;
  budget?: number;
  mix: string;
}

function measure(
  scenario: string,
  unit: string,
  budget: number | undefined,
  step: (i: number) => string,
): Row {
  const tally = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) step(i);
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < RUN_MS) {
    for (let j = 0; j < 2_000; j++, count++) {
      const outcome = step(count);
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
    elapsed = performance.now() - start;
  }
  const mix = [...tally.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, n]) => `${outcome} ${Math.round((100 * n) / count)}%`)
    .join(", ");
  return { scenario, unit, count, seconds: elapsed / 1000, budget, mix };
}

const scpSet = [fullAwsAccess, ...guardrails];
const rows: Row[] = [
  measure("SCP: FullAWSAccess + 5 deny SCPs, one level", "decisions", SCP_BUDGET, (i) => {
    return evaluatePolicySet(requests[i % requests.length]!, scpSet).decision;
  }),
  measure("SCP: same SCPs over root / OU / account", "decisions", SCP_BUDGET, (i) => {
    return evaluateScpHierarchy(requests[i % requests.length]!, hierarchy).decision;
  }),
  measure("Azure: locations, https-only, public-IP count rules", "rule evaluations", AZURE_BUDGET, (i) => {
    const rule = rules[i % rules.length]!;
    const resource = resources[Math.floor(i / rules.length) % resources.length]!;
    return evaluatePolicyRule(rule, resource, ruleParameters, aliases).applies ? "applies" : "compliant";
  }),
  measure("Azure: request against 3 assignments", "requests", undefined, (i) => {
    return evaluateAzureRequest(resources[i % resources.length]!, assignments, [], new Date(), aliases)
      .decision;
  }),
];

const header = ["scenario", "figure", "budget", "status", "outcome mix"];
const table = rows.map((row) => {
  const perSecond = row.count / row.seconds;
  const status = row.budget === undefined ? "-" : perSecond >= row.budget ? "ok" : "BELOW BUDGET";
  if (status === "BELOW BUDGET") process.exitCode = 1;
  record({
    group: "policy evaluation",
    figure: row.scenario,
    value: Math.round(perSecond),
    unit: `${row.unit}/s`,
    budget: row.budget === undefined ? undefined : { kind: "min", value: row.budget },
  });
  return [
    row.scenario,
    `${Math.round(perSecond).toLocaleString("en-US")} ${row.unit}/s`,
    row.budget === undefined ? "-" : `>= ${row.budget.toLocaleString("en-US")}/s`,
    status,
    row.mix,
  ];
});

const catalogue = timeCatalogueCompile(RUN_MS);
record({
  group: "policy evaluation",
  figure: `catalogue: compile all ${catalogue.definitions} definitions (warm)`,
  value: Number(catalogue.compileMs.toFixed(2)),
  unit: "ms",
});
const ms = (value: number) => `${value.toFixed(2)} ms`;
table.push(
  [`Catalogue: read + parse ${catalogue.files} files`, ms(catalogue.loadMs), "-", "-", "-"],
  [
    `Catalogue: compile all ${catalogue.definitions} definitions (first run)`,
    ms(catalogue.firstCompileMs),
    "-",
    "-",
    "-",
  ],
  [
    `Catalogue: compile all ${catalogue.definitions} definitions (warm)`,
    ms(catalogue.compileMs),
    "-",
    "-",
    "-",
  ],
);

const widths = header.map((title, column) =>
  Math.max(title.length, ...table.map((cells) => cells[column]!.length)),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
console.log(`policy evaluation, one core, Node ${process.versions.node}, ${RUN_MS} ms per scenario`);
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const cells of table) console.log(line(cells));
