import { useMutation } from "@connectrpc/connect-query";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { errorText } from "@/lib/error-text";

const NAME_MAX = 100;

function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > NAME_MAX) return `Tenant name must be 1 to ${NAME_MAX} characters.`;
  return undefined;
}

/** An instance administrator's new tenant; they become its administrator and switch to it. */
export function NewTenantDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (tenantId: string) => Promise<void>;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation(TenantService.method.createTenant);
  const problem = submitted ? nameProblem(name) : undefined;

  function close(next: boolean) {
    if (!next) {
      setName("");
      setSubmitted(false);
      create.reset();
    }
    onOpenChange(next);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameProblem(name)) return;
    try {
      const { tenant } = await create.mutateAsync({ name: name.trim() });
      if (tenant) await onCreated(tenant.id);
      close(false);
    } catch {
      // Shown below the field.
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>New tenant</DialogTitle>
            <DialogDescription>
              A tenant has its own connectors, policies, waivers and members. You become its administrator and
              can invite others.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-name`}>Tenant name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              placeholder="Payments platform"
              aria-invalid={!!problem}
              onChange={(event) => setName(event.target.value)}
            />
            {problem && <p className="text-sm text-destructive">{problem}</p>}
          </div>
          {create.error && (
            <p role="alert" className="text-sm text-destructive">
              {errorText(create.error)}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderIcon className="animate-spin" />}
              Create tenant
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
