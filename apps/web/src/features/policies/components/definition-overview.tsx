import { type JsonObject, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import {
  NoticeType,
  type PolicyDefinition,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { useQuery } from "@tanstack/react-query";
import { ExternalLinkIcon } from "lucide-react";
import { ParameterValue } from "@/components/parameter-value";
import { TextBlock } from "@/components/text-block";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { categoryLabels, providerLabel } from "@/lib/policy-definition-labels";
import { safeUrl } from "@/lib/safe-url";
import { definitionQuery } from "../api/policy-queries";
import { scoreLabels } from "../catalogue-filters";

function Parameters({
  definition,
  values,
}: {
  definition: PolicyDefinition;
  values: JsonObject | undefined;
}) {
  if (definition.parameterDefinitions.length === 0) return null;
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold">Parameters</h3>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        {definition.parameterDefinitions.map((parameter) => {
          const fallback = parameter.defaultValue ? toJson(ValueSchema, parameter.defaultValue) : undefined;
          return (
            <div key={parameter.name}>
              <dt className="text-muted-foreground">{parameter.displayName || parameter.name}</dt>
              <dd className="font-mono text-xs break-all">
                <ParameterValue value={values?.[parameter.name] ?? fallback} />
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** What the policy is: its description, cautions, settings, frameworks and reading. */
export function DefinitionOverview({
  slug,
  parameters,
}: {
  slug: string;
  parameters: JsonObject | undefined;
}) {
  const query = useQuery(definitionQuery(slug));
  if (query.isPending) return <Skeleton className="h-48 w-full" />;
  if (query.isError || !query.data.policyDefinition) {
    return (
      <p className="text-sm text-destructive">
        {query.isError ? describeError(query.error).message : "This policy is not in the catalogue."}
      </p>
    );
  }
  const definition = query.data.policyDefinition;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          {definition.displayName}
          <Badge variant="outline">{providerLabel(definition)}</Badge>
          <Badge variant="secondary">{categoryLabels[definition.category]}</Badge>
        </CardTitle>
        <p className="text-xs text-muted-foreground">
          Security {scoreLabels[definition.securityScore]} · Seamless {scoreLabels[definition.seamlessScore]}{" "}
          · {definition.mainResourceType}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        {definition.description && <TextBlock>{definition.description}</TextBlock>}
        {definition.notices.map((notice) => (
          <Alert
            key={notice.noticeContent}
            variant={
              notice.noticeType === NoticeType.ERROR
                ? "destructive"
                : notice.noticeType === NoticeType.WARNING
                  ? "warning"
                  : "default"
            }
          >
            <AlertDescription>{notice.noticeContent}</AlertDescription>
          </Alert>
        ))}
        {definition.warnings.map((warning) => (
          <Alert key={warning} variant="warning">
            <AlertDescription>{warning}</AlertDescription>
          </Alert>
        ))}
        <Parameters definition={definition} values={parameters} />
        {definition.frameworks.length > 0 && (
          <section className="space-y-2">
            <h3 className="text-sm font-semibold">Frameworks</h3>
            <ul className="flex flex-wrap gap-2">
              {definition.frameworks.map((f) => (
                <li key={`${f.name}-${f.section}-${f.subsection}`}>
                  <Badge variant="outline">
                    {[f.name, f.section, f.subsection].filter(Boolean).join(" · ")}
                  </Badge>
                </li>
              ))}
            </ul>
          </section>
        )}
        {definition.furtherReadingUrls.length > 0 && (
          <section className="space-y-2">
            <h3 className="text-sm font-semibold">Further reading</h3>
            <ul className="space-y-1 text-sm">
              {definition.furtherReadingUrls.map((url) => {
                const href = safeUrl(url.href);
                return (
                  <li key={url.href}>
                    {href ? (
                      <a
                        href={href}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="inline-flex items-center gap-1 text-primary hover:underline"
                      >
                        {url.name || url.href}
                        <ExternalLinkIcon className="size-3.5" />
                      </a>
                    ) : (
                      url.name
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
