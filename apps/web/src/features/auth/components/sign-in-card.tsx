import { useRouteContext, useRouter } from "@tanstack/react-router";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { emailAddressSchema } from "@/lib/email-address";
import { readLastLogin, rememberLastLogin } from "@/lib/last-login";
import { isOwnEntryPage } from "@/lib/own-entry-pages";
import { postSignInPath } from "@/lib/redirect-path";
import {
  addressMethods,
  identifierStepMethods,
  orderMethods,
  type SignedInUser,
  type SignInMethod,
} from "./sign-in-methods";
import { SsoSignIn } from "./sso-sign-in";

/**
 * Sign-in in two steps: the address first, then the ways to sign in with it. The address,
 * name and method of the last sign-in on this browser are offered first.
 */
export function SignInCard({ redirectPath }: { redirectPath: string | undefined }) {
  const router = useRouter();
  const { auth } = useRouteContext({ from: "__root__" });
  const [lastLogin] = useState(() => readLastLogin());
  const [email, setEmail] = useState<string | null>(null);

  async function onSignedIn(user: SignedInUser, method: string) {
    rememberLastLogin({ loginId: user.email, name: user.name, method });
    auth.invalidate();
    const target = postSignInPath(redirectPath);
    if (isOwnEntryPage(target)) window.location.replace(target);
    else await router.navigate({ href: target, replace: true });
  }

  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle as="h1" className="text-xl">
          {lastLogin ? `Welcome back, ${lastLogin.name}` : "Sign in to Palisade"}
        </CardTitle>
        <CardDescription>
          {email ? (
            <>
              Signing in as <span className="font-medium break-all text-foreground">{email}</span>
            </>
          ) : (
            "Enter the e-mail address of your Palisade account."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {email ? (
          <MethodStep
            // A new address starts the methods afresh.
            key={email}
            email={email}
            methods={orderMethods(
              addressMethods,
              lastLogin?.loginId.toLowerCase() === email.toLowerCase() ? lastLogin.method : undefined,
            )}
            redirectPath={redirectPath}
            onSignedIn={onSignedIn}
            onChangeAddress={() => setEmail(null)}
          />
        ) : (
          <IdentifierStep
            initialEmail={email ?? lastLogin?.loginId ?? ""}
            focusContinue={!!lastLogin}
            redirectPath={redirectPath}
            onContinue={setEmail}
            onSignedIn={onSignedIn}
          />
        )}
      </CardContent>
    </Card>
  );
}

function IdentifierStep({
  initialEmail,
  focusContinue,
  redirectPath,
  onContinue,
  onSignedIn,
}: {
  initialEmail: string;
  focusContinue: boolean;
  redirectPath: string | undefined;
  onContinue: (email: string) => void;
  onSignedIn: (user: SignedInUser, method: string) => Promise<void>;
}) {
  const id = useId();
  const [value, setValue] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailAddressSchema.safeParse(value);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "E-mail is required");
      return;
    }
    onContinue(parsed.data);
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="space-y-2">
          <Label htmlFor={`${id}-email`}>E-mail</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="username"
            autoFocus={!focusContinue}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={!!fieldError}
            aria-describedby={fieldError ? `${id}-email-error` : undefined}
          />
          {fieldError && (
            <p id={`${id}-email-error`} className="text-sm text-destructive">
              {fieldError}
            </p>
          )}
        </div>
        <Button type="submit" className="w-full" autoFocus={focusContinue}>
          Continue
        </Button>
      </form>
      {identifierStepMethods.map((Method, index) => (
        // The list is fixed at build time, so its position is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed list
        <Method key={index} redirectPath={redirectPath} onSignedIn={onSignedIn} />
      ))}
    </div>
  );
}

function MethodStep({
  email,
  methods,
  redirectPath,
  onSignedIn,
  onChangeAddress,
}: {
  email: string;
  methods: SignInMethod[];
  redirectPath: string | undefined;
  onSignedIn: (user: SignedInUser, method: string) => Promise<void>;
  onChangeAddress: () => void;
}) {
  const [active, setActive] = useState<{ id: string; chosen: boolean }>({
    id: methods[0]?.id ?? "password",
    chosen: false,
  });
  const current = methods.find((method) => method.id === active.id) ?? methods[0];
  const others = methods.filter((method) => method !== current);
  if (!current) return null;
  const Panel = current.Panel;

  return (
    <div className="space-y-4">
      {/* Single sign-on when the address's domain has it, and the social providers turned on. */}
      <SsoSignIn email={email} redirectPath={redirectPath} />
      <Panel
        key={current.id}
        email={email}
        chosen={active.chosen}
        redirectPath={redirectPath}
        onSignedIn={onSignedIn}
      />
      {others.length > 0 && (
        <section aria-label="Other ways to sign in" className="space-y-2 border-t pt-4">
          <p className="text-xs font-medium text-muted-foreground uppercase">Other ways to sign in</p>
          {others.map((method) => (
            <Button
              key={method.id}
              type="button"
              variant="outline"
              className="w-full"
              onClick={() => setActive({ id: method.id, chosen: true })}
            >
              {method.label}
            </Button>
          ))}
        </section>
      )}
      <Button type="button" variant="link" className="w-full" onClick={onChangeAddress}>
        Use a different e-mail
      </Button>
    </div>
  );
}
