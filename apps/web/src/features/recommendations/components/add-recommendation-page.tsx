import { zodResolver } from "@hookform/resolvers/zod";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { Link, useNavigate } from "@tanstack/react-router";
import { LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { ErrorDialog } from "@/components/error-dialog";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useAddRecommendation } from "../api/recommendation-queries";
import {
  type AddRecommendationInput,
  type AddRecommendationValues,
  addRecommendationSchema,
} from "../forms/add-recommendation-schema";

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

export function AddRecommendationPage() {
  const id = useId();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const add = useAddRecommendation();
  const form = useForm<AddRecommendationInput, unknown, AddRecommendationValues>({
    resolver: zodResolver(addRecommendationSchema),
    mode: "onTouched",
    defaultValues: { title: "", description: "", policySlugs: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await add.mutateAsync({
        title: values.title,
        description: values.description,
        policySlugs: values.policySlugs,
        provider: values.provider === "AWS" ? CloudProvider.AWS : CloudProvider.AZURE,
      });
      const id = answer.recommendation?.entity?.id;
      await navigate({ to: "/recommendations", search: id ? { recommendationId: id } : {} });
    } catch (e) {
      setError(e);
    }
  });

  return (
    <>
      <PageHeader
        title="Add recommendation"
        description="Record a guardrail your team wants to adopt, with the policy definitions that implement it, so it can be reviewed and installed later."
      />
      <Card className="max-w-2xl">
        <CardContent className="pt-6">
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <div className="space-y-2">
              <Label htmlFor={`${id}-title`}>Title</Label>
              <Input
                id={`${id}-title`}
                aria-invalid={!!errors.title}
                aria-describedby={`${id}-title-error`}
                {...form.register("title")}
              />
              <FieldError id={`${id}-title-error`} message={errors.title?.message} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-description`}>Description</Label>
              <Textarea
                id={`${id}-description`}
                rows={5}
                placeholder="What risk it addresses and why it matters. Markdown is supported."
                aria-invalid={!!errors.description}
                aria-describedby={`${id}-description-error`}
                {...form.register("description")}
              />
              <FieldError id={`${id}-description-error`} message={errors.description?.message} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-provider`}>Cloud</Label>
              <Controller
                control={form.control}
                name="provider"
                render={({ field }) => (
                  <Select value={field.value ?? ""} onValueChange={field.onChange}>
                    <SelectTrigger
                      id={`${id}-provider`}
                      className="sm:w-60"
                      onBlur={field.onBlur}
                      aria-invalid={!!errors.provider}
                      aria-describedby={`${id}-provider-error`}
                    >
                      <SelectValue placeholder="Choose a cloud" />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="AWS">AWS</SelectItem>
                      <SelectItem value="Azure">Azure</SelectItem>
                    </SelectContent>
                  </Select>
                )}
              />
              <FieldError id={`${id}-provider-error`} message={errors.provider?.message} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-slugs`}>Policy definitions</Label>
              <Input
                id={`${id}-slugs`}
                placeholder="deny-leave-organization, require-imdsv2"
                aria-invalid={!!errors.policySlugs}
                aria-describedby={`${id}-slugs-help ${id}-slugs-error`}
                {...form.register("policySlugs")}
              />
              <p id={`${id}-slugs-help`} className="text-sm text-muted-foreground">
                Slugs of the catalogue definitions, separated by commas.
              </p>
              <FieldError id={`${id}-slugs-error`} message={errors.policySlugs?.message} />
            </div>
            <div className="flex gap-2">
              <Button type="submit" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting && <LoaderIcon className="animate-spin" />}
                {form.formState.isSubmitting ? "Adding..." : "Add recommendation"}
              </Button>
              <Button variant="outline" asChild>
                <Link to="/recommendations">Cancel</Link>
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
