import { AlertTriangleIcon, RotateCwIcon } from "lucide-react";
import { useEffect } from "react";
import { Logo } from "@/components/logo";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { shouldReloadForChunkError } from "@/lib/chunk-reload";
import { errorText } from "@/lib/error-text";
import { logger } from "@/lib/logger";
import { cn } from "@/lib/utils";

export function FallbackScreen({ error, embedded = false }: { error: unknown; embedded?: boolean }) {
  useEffect(() => {
    if (shouldReloadForChunkError(error)) {
      window.location.reload();
      return;
    }
    logger.error("Screen failed", error);
  }, [error]);

  return (
    <main
      className={cn(
        "flex flex-col items-center justify-center gap-8 bg-background px-4 py-12",
        embedded ? "min-h-[60vh]" : "min-h-screen",
      )}
    >
      {!embedded && <Logo />}
      <Card className="w-full max-w-lg">
        <CardHeader>
          <CardTitle as="h1">Oops</CardTitle>
          <CardDescription>
            This page could not be shown. Reloading usually fixes a temporary problem.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <Alert variant="destructive">
            <AlertTriangleIcon />
            <AlertTitle>Something went wrong!</AlertTitle>
            <AlertDescription className="break-words">{errorText(error)}</AlertDescription>
          </Alert>
          <Button onClick={() => window.location.reload()}>
            <RotateCwIcon />
            Refresh page
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
