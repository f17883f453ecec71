import { timestampDate } from "@bufbuild/protobuf/wkt";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { LoaderIcon } from "lucide-react";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { useDecideFromChat } from "../api/notification-queries";
import { chatTokenAction } from "../chat-token";

/**
 * Where a Teams card's Approve or Reject leads: the signed-in member confirms, so that a link
 * preview or a mistaken click decides nothing by itself.
 */
export function ChatDecisionPage({ token }: { token: string }) {
  const action = chatTokenAction(token);
  const decide = useDecideFromChat();
  const verb = action === "reject" ? "Reject" : "Approve";
  const waiver = decide.data?.waiver;
  return (
    <div className="mx-auto max-w-xl space-y-6">
      <PageHeader
        title={`${verb} waiver`}
        description="A decision from the Microsoft Teams message, recorded in your name."
      />
      {!action ? (
        <Alert variant="destructive">
          <AlertTitle>This link is not valid</AlertTitle>
          <AlertDescription>
            Open the Approve or Reject button of the newest Teams message again.
          </AlertDescription>
        </Alert>
      ) : waiver ? (
        <Card>
          <CardHeader>
            <CardTitle role="status">
              {decide.data?.decision === WaiverStatus.ACTIVE ? "Waiver approved" : "Waiver rejected"}
            </CardTitle>
            <CardDescription>
              {waiver.requester?.name}'s waiver for {waiver.policyKey}
              {waiver.scope ? ` on ${waiver.scope}` : ""}
              {waiver.expiresAt ? `, active until ${formatDateTime(timestampDate(waiver.expiresAt))}` : ""}.
              The requester is told in the channel and on their request page.
            </CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{verb} this waiver?</CardTitle>
            <CardDescription>
              {action === "approve"
                ? "The waiver starts now and runs for the duration asked; the cloud lets the denied action through until then."
                : "The request is refused; the action stays denied."}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            {decide.isError && (
              <Alert variant="destructive">
                <AlertTitle>Not recorded</AlertTitle>
                <AlertDescription>{describeError(decide.error).message}</AlertDescription>
              </Alert>
            )}
            <Button
              variant={action === "reject" ? "destructive" : "default"}
              disabled={decide.isPending || decide.isError}
              onClick={() => decide.mutate({ token })}
            >
              {decide.isPending && <LoaderIcon className="animate-spin" />}
              {verb} waiver
            </Button>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
