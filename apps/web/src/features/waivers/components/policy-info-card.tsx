import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import { ExternalLinkIcon, KeyRoundIcon, SearchXIcon, WifiOffIcon } from "lucide-react";
import { type ReactNode, Suspense, useEffect } from "react";
import { ParameterValue } from "@/components/parameter-value";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { errorText } from "@/lib/error-text";
import { preloadableLazy } from "@/lib/preloadable-lazy";
import { prefetchPolicyOfKey, useBundleByKey, useDefinitionBySlug } from "../api/waiver-request-queries";
import type { BundleByKeyJson } from "../api/waiver-rpc";
import { policyCardState } from "../policy-card-state";
import { PolicyTitle } from "./policy-title";

// Markdown rendering is the heaviest part of this page and only needed once a key is found.
const TextBlock = preloadableLazy(() => import("@/components/text-block").then((m) => m.TextBlock));

/**
 * How long the page's first render waits for the key's policy (the head preloads its lookup, which
 * usually answers before the page's code has arrived); a slower answer follows the loading card.
 */
const policyWaitMs = 1_000;

/**
 * Starts what the card shows for a key given in the address (the deny message's link): the key's
 * policy, its definition and the text block's code, beside the session rather than after the
 * first render. Resolves once the code is here (a failed load too: the card then loads it itself)
 * and the key's policy has been read, or `policyWaitMs` has passed: rendered first with the
 * loading card, the page would paint twice before showing the policy.
 */
export function preloadPolicyCard(key: string): Promise<void> {
  const policy = prefetchPolicyOfKey(key).catch(() => {});
  const waited = new Promise<void>((resolve) => setTimeout(resolve, policyWaitMs));
  return Promise.all([preloadPolicyCardCode(), Promise.race([policy, waited])]).then(() => {});
}

/** The code of what the card shows for a found key (its text block), settled either way. */
export function preloadPolicyCardCode(): Promise<void> {
  return TextBlock.preloaded();
}

function Message({ icon, title, hint }: { icon: ReactNode; title: string; hint: string }) {
  return (
    <Card className="h-full">
      <CardContent className="flex h-full flex-col items-center justify-center gap-3 px-6 py-12 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground [&_svg]:size-6">
          {icon}
        </div>
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="max-w-xs text-sm text-muted-foreground">{hint}</p>
      </CardContent>
    </Card>
  );
}

function LoadingCard() {
  return (
    <Card className="h-full" aria-busy="true" aria-label="Loading policy information">
      <CardHeader>
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-1/3" />
      </CardHeader>
      <CardContent className="space-y-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
        <Skeleton className="mt-6 h-4 w-1/2" />
        <Skeleton className="h-4 w-2/3" />
      </CardContent>
    </Card>
  );
}

function FurtherReading({ slug }: { slug: string }) {
  const definition = useDefinitionBySlug(slug);
  if (definition.isPending) {
    return (
      <div className="space-y-2" aria-busy="true">
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  }
  if (definition.isError)
    return <p className="text-sm text-destructive">Failed to load further reading links</p>;
  // The server checks these links too; only absolute http(s) addresses are shown.
  const links = (definition.data.furtherReadingUrls ?? []).filter((link) =>
    /^https?:\/\//i.test(link.href ?? ""),
  );
  if (links.length === 0)
    return <p className="text-sm text-muted-foreground">No further reading available</p>;
  return (
    <ul className="space-y-2">
      {links.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-start gap-1.5 text-sm font-medium text-primary hover:underline"
          >
            <ExternalLinkIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            {link.name || link.href}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The bundle's settings, labelled as the policy definition names them. */
function Parameters({ parameters }: { parameters: NonNullable<BundleByKeyJson["parameters"]> }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold">Settings of this policy</h3>
      <dl className="space-y-3 text-sm" aria-label="Policy parameters">
        {parameters.map((parameter) => (
          <div key={parameter.name} className="space-y-0.5">
            <dt className="text-muted-foreground" title={parameter.description || undefined}>
              {parameter.displayName || parameter.name}
            </dt>
            <dd className="font-mono text-xs break-all">
              <ParameterValue value={parameter.value} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function PolicyInfoCard({ typedKey, debouncedKey }: { typedKey: string; debouncedKey: string }) {
  const key = debouncedKey.trim();
  const lookupKey = key.length === POLICY_KEY_LENGTH ? key : "";
  const bundle = useBundleByKey(lookupKey);
  // A typed key: the text block's code arrives while the key is looked up.
  useEffect(() => {
    if (lookupKey !== "") void TextBlock.preloaded();
  }, [lookupKey]);
  const state = policyCardState({
    key: typedKey,
    typing: typedKey.trim() !== key,
    status: lookupKey === "" ? "idle" : bundle.isPending ? "pending" : bundle.isError ? "error" : "success",
    found: !!bundle.data?.key,
    errorMessage: bundle.isError ? errorText(bundle.error) : undefined,
  });

  switch (state.kind) {
    case "empty":
      return (
        <Message
          icon={<KeyRoundIcon />}
          title="Enter Policy key..."
          hint="Policy information will appear here once we validate the ID"
        />
      );
    case "keep-typing":
      return (
        <Message
          icon={<KeyRoundIcon />}
          title="Keep typing..."
          hint={`Policy keys are 7 characters long (${state.length}/7)`}
        />
      );
    case "invalid-format":
      return (
        <Message
          icon={<SearchXIcon />}
          title="Invalid Policy Key Format"
          hint={`Policy keys must be exactly 7 characters (currently ${state.length})`}
        />
      );
    case "loading":
      return <LoadingCard />;
    case "connection-error":
      return (
        <Message
          icon={<WifiOffIcon />}
          title="Connection Error"
          hint="Please check your internet connection and try again"
        />
      );
    case "not-found":
      return (
        <Message
          icon={<SearchXIcon />}
          title="We Couldn't Find Your Policy"
          hint="Please make sure you inserted a valid policy ID"
        />
      );
    case "found":
      break;
  }

  const data = bundle.data!;
  const slug = data.policySlug ?? "";
  return (
    <Card className="h-full">
      <CardHeader>
        <CardDescription className="font-mono text-xs tracking-widest">{data.key}</CardDescription>
        <PolicyTitle slug={slug} />
      </CardHeader>
      <CardContent className="space-y-6">
        <details open className="group space-y-2">
          <summary className="cursor-pointer text-sm font-semibold">Feedback Message</summary>
          {data.feedbackMessage ? (
            <Suspense fallback={<Skeleton className="h-16 w-full" />}>
              <TextBlock>{data.feedbackMessage}</TextBlock>
            </Suspense>
          ) : (
            <p className="text-sm text-muted-foreground">No feedback message available</p>
          )}
        </details>
        {(data.parameters?.length ?? 0) > 0 && <Parameters parameters={data.parameters ?? []} />}
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">Further Reading</h3>
          <FurtherReading slug={slug} />
        </section>
      </CardContent>
    </Card>
  );
}
