import { timestampDate } from "@bufbuild/protobuf/wkt";
import { SignInMethod } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PagePagination } from "@/components/page-pagination";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/date-time";
import { errorText } from "@/lib/error-text";
import { signInHistoryQuery } from "../api/account-queries";

const METHOD_LABELS: Record<SignInMethod, string> = {
  [SignInMethod.UNSPECIFIED]: "Other",
  [SignInMethod.PASSWORD]: "Password",
  [SignInMethod.EMAIL_OTP]: "E-mailed code",
  [SignInMethod.EMAIL_VERIFICATION]: "Address confirmation link",
  [SignInMethod.MAGIC_LINK]: "E-mailed sign-in link",
  [SignInMethod.PASSKEY]: "Passkey",
  [SignInMethod.PHONE_OTP]: "Phone code",
  [SignInMethod.AUTHENTICATOR]: "Authenticator app",
  [SignInMethod.BACKUP_CODE]: "Backup code",
  [SignInMethod.SSO_OIDC]: "Single sign-on (OpenID Connect)",
  [SignInMethod.SSO_SAML]: "Single sign-on (SAML)",
  [SignInMethod.SOCIAL]: "Social sign-in",
};

/** "Password", "Single sign-on (SAML)", or the social provider by name: "GitHub". */
function methodLabel(event: { method: SignInMethod; provider: string }): string {
  if (event.method === SignInMethod.SOCIAL && event.provider) return event.provider;
  return METHOD_LABELS[event.method] ?? METHOD_LABELS[SignInMethod.UNSPECIFIED];
}

export function HistoryCard() {
  const [page, setPage] = useState(1);
  const { data, isPending, error } = useQuery(signInHistoryQuery(page));
  const position = data?.pagination?.position;
  const totalPages = position?.case === "totalPages" ? position.value : 1;

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle as="h2">Sign-in history</CardTitle>
        <CardDescription>
          Every sign-in to your account, refused ones included. One you do not recognise? Change your password
          and sign out everywhere.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorText(error)}
          </p>
        ) : data && data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No sign-ins recorded yet.</p>
        ) : (
          <Table aria-label="Sign-in history">
            <TableHeader>
              <TableRow>
                <TableHead>Time</TableHead>
                <TableHead>Method</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>Device</TableHead>
                <TableHead>Result</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data?.items.map((event) => (
                <TableRow key={event.id}>
                  <TableCell className="whitespace-nowrap">
                    {event.occurredAt ? formatDateTime(timestampDate(event.occurredAt)) : "—"}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{methodLabel(event)}</TableCell>
                  <TableCell className="whitespace-nowrap">{event.ipAddress || "Unknown"}</TableCell>
                  <TableCell className="whitespace-nowrap">{event.device}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {event.success ? (
                      <Badge variant="success">Signed in</Badge>
                    ) : (
                      <Badge variant="destructive">Refused: {event.failureReason}</Badge>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <PagePagination page={page} totalPages={totalPages} onPage={setPage} />
      </CardContent>
    </Card>
  );
}
