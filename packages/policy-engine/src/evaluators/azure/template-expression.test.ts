import { describe, expect, it } from "vitest";
import { type ExpressionScope, PolicyEvaluationError, resolveTemplateValue } from "./template-expression";

const scope: ExpressionScope = {
  parameter: (name) => ({ list: ["a", "b"], text: "Hello", obj: { Key: 1 } })[name],
  field: (name) => (name === "name" ? "web-01" : undefined),
  current: () => "member",
};

describe("template expressions", () => {
  // ARM template functions as used by Azure Policy ("policy functions" and "template functions").
  it.each([
    { expression: "plain text", value: "plain text" },
    { expression: "[[not an expression]", value: "[not an expression]" },
    { expression: "['it''s']", value: "it's" },
    { expression: "[unknownFunction()]", error: true },
    { expression: "[concat(parameters('list'), parameters('list'))]", value: ["a", "b", "a", "b"] },
    { expression: "[concat('n=', 3, true)]", value: "n=3true" },
    { expression: "[and(equals(1, 1), or(false, true()), not(false()))]", value: true },
    { expression: "[startsWith(field('name'), 'WEB')]", value: true },
    { expression: "[endsWith(field('name'), '02')]", value: false },
    { expression: "[contains(parameters('text'), 'hello')]", value: false },
    { expression: "[contains(parameters('list'), 'b')]", value: true },
    { expression: "[parameters('obj').key]", value: 1 },
    { expression: "[parameters('obj')['Key']]", value: 1 },
    { expression: "[int('42')]", value: 42 },
    { expression: "[string(parameters('obj'))]", value: '{"Key":1}' },
    { expression: "[length(parameters('obj'))]", value: 1 },
    { expression: "[if(empty(parameters('missing')), 'none', first(parameters('missing')))]", value: "none" },
    { expression: "[current()]", value: "member" },
    { expression: "[less(length(parameters('list')), 3)]", value: true },
    { expression: "[greaterOrEquals(length(field('name')), 7)]", value: false },
    { expression: "[and(lessOrEquals('a', 'b'), greater(2, 1))]", value: true },
    { expression: "[substring(field('name'), 0, 3)]", value: "web" },
    { expression: "[substring(field('name'), 4, 3)]", error: true },
    { expression: "[take(field('name'), 3)]", value: "web" },
    { expression: "[less(1, 'a')]", error: true },
    { expression: "[first(parameters('list'))", value: "[first(parameters('list'))" },
    { expression: "[parameters('list')[5]]", error: true },
    { expression: "[toLower(parameters('list'))]", error: true },
    { expression: "[concat('a' 'b')]", error: true },
  ])("$expression", ({ expression, value, error }) => {
    if (error) expect(() => resolveTemplateValue(expression, scope)).toThrow(PolicyEvaluationError);
    else expect(resolveTemplateValue(expression, scope)).toEqual(value);
  });
});
