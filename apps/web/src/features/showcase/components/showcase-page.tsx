import { Link } from "@tanstack/react-router";
import {
  ArrowRightIcon,
  InfoIcon,
  MoreHorizontalIcon,
  ShieldAlertIcon,
  TriangleAlertIcon,
} from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { Logo } from "@/components/logo";
import { TextBlock } from "@/components/text-block";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Slider } from "@/components/ui/slider";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useDocumentTitle } from "@/lib/use-document-title";
import { markdownSample } from "../markdown-sample";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3" aria-labelledby={`section-${title}`}>
      <h2 id={`section-${title}`} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

const sampleRows = [
  { name: "Text", example: "Policy key", kind: "string" },
  { name: "Duration", example: "24 hours", kind: "integer" },
  { name: "Mode", example: "Prevent", kind: "enum" },
];

export function ShowcasePage() {
  useDocumentTitle("Interface components");
  const [hours, setHours] = useState(24);
  const [dialogError, setDialogError] = useState<unknown>(null);
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between px-4 sm:px-6">
          <Logo />
          <Button variant="link" asChild>
            <Link to="/ui-components/scroll-indicator">
              Scroll indicator demo
              <ArrowRightIcon />
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-10 px-4 py-8 sm:px-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Interface components</h1>
          <p className="text-sm text-muted-foreground">
            The building blocks of Palisade's screens, in every variant, for design review and accessibility
            checks.
          </p>
        </div>

        <Section title="Buttons">
          <div className="flex flex-wrap gap-2">
            <Button>Primary</Button>
            <Button variant="secondary">Secondary</Button>
            <Button variant="outline">Outline</Button>
            <Button variant="ghost">Ghost</Button>
            <Button variant="destructive">Delete</Button>
            <Button variant="link">Link</Button>
            <Button disabled>Disabled</Button>
            <Button size="sm">Small</Button>
            <Button size="icon" variant="outline" aria-label="More actions">
              <MoreHorizontalIcon />
            </Button>
          </div>
        </Section>

        <Section title="Form fields">
          <Card>
            <CardContent className="grid gap-6 pt-6 md:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor="showcase-input">Policy key</Label>
                <Input id="showcase-input" placeholder="ABCDEFG" />
              </div>
              <div className="space-y-2">
                <Label htmlFor="showcase-invalid">Invalid input</Label>
                <Input id="showcase-invalid" aria-invalid defaultValue="ABC" />
                <p className="text-sm text-destructive">Key must be 7 characters long</p>
              </div>
              <div className="space-y-2">
                <Label htmlFor="showcase-select">Cloud</Label>
                <Select defaultValue="AWS">
                  <SelectTrigger id="showcase-select">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="AWS">AWS</SelectItem>
                    <SelectItem value="Azure">Azure</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              <div className="space-y-3">
                <Label>Duration: {hours} hours</Label>
                <Slider
                  aria-label="Duration in hours"
                  min={1}
                  max={72}
                  value={hours}
                  onValueChange={setHours}
                />
              </div>
              <div className="space-y-2 md:col-span-2">
                <Label htmlFor="showcase-textarea">Reason</Label>
                <Textarea id="showcase-textarea" rows={4} placeholder="Why is this needed?" />
              </div>
            </CardContent>
          </Card>
        </Section>

        <Section title="Alerts and badges">
          <div className="space-y-3">
            <Alert>
              <InfoIcon />
              <AlertTitle>Alert mode</AlertTitle>
              <AlertDescription>
                The policy reports what it would have denied without blocking anything.
              </AlertDescription>
            </Alert>
            <Alert variant="warning">
              <TriangleAlertIcon />
              <AlertTitle>Waiver expires soon</AlertTitle>
              <AlertDescription>Exemptions are removed from the cloud at expiry.</AlertDescription>
            </Alert>
            <Alert variant="destructive">
              <ShieldAlertIcon />
              <AlertTitle>Deployment failed</AlertTitle>
              <AlertDescription>
                The target already has five service control policies attached.
              </AlertDescription>
            </Alert>
          </div>
          <div className="flex flex-wrap gap-2">
            <Badge>Prevent</Badge>
            <Badge variant="secondary">Alert</Badge>
            <Badge variant="outline">AWS</Badge>
            <Badge variant="success">Deployed</Badge>
            <Badge variant="warning">Pending</Badge>
            <Badge variant="destructive">Failed</Badge>
          </div>
        </Section>

        <Section title="Cards and tabs">
          <div className="grid gap-4 md:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>Card title</CardTitle>
                <CardDescription>Supporting text that explains the card.</CardDescription>
              </CardHeader>
              <CardContent className="text-sm">Card body.</CardContent>
            </Card>
            <Card>
              <CardContent className="pt-6">
                <Tabs defaultValue="overview">
                  <TabsList>
                    <TabsTrigger value="overview">Overview</TabsTrigger>
                    <TabsTrigger value="events">Events</TabsTrigger>
                    <TabsTrigger value="waivers">Waivers</TabsTrigger>
                  </TabsList>
                  <TabsContent value="overview" className="text-sm">
                    Overview panel
                  </TabsContent>
                  <TabsContent value="events" className="text-sm">
                    Events panel
                  </TabsContent>
                  <TabsContent value="waivers" className="text-sm">
                    Waivers panel
                  </TabsContent>
                </Tabs>
              </CardContent>
            </Card>
          </div>
        </Section>

        <Section title="Table">
          <Card className="overflow-hidden">
            <Table>
              <TableCaption className="pb-4">Field types of a policy parameter.</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>Field</TableHead>
                  <TableHead>Example</TableHead>
                  <TableHead>Type</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {sampleRows.map((row) => (
                  <TableRow key={row.name}>
                    <TableCell className="font-medium">{row.name}</TableCell>
                    <TableCell>{row.example}</TableCell>
                    <TableCell>
                      <Badge variant="outline">{row.kind}</Badge>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
        </Section>

        <Section title="Loading skeleton">
          <Card>
            <CardContent className="space-y-3 pt-6">
              <Skeleton className="h-5 w-1/3" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-4/5" />
            </CardContent>
          </Card>
        </Section>

        <Section title="Overlays">
          <div className="flex flex-wrap gap-2">
            <Tooltip>
              <TooltipTrigger asChild>
                <Button variant="outline">Hover or focus me</Button>
              </TooltipTrigger>
              <TooltipContent>Tooltips explain icons and truncated text.</TooltipContent>
            </Tooltip>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="outline">Open menu</Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuLabel>Policy</DropdownMenuLabel>
                <DropdownMenuItem>Switch to prevent</DropdownMenuItem>
                <DropdownMenuItem>Edit scopes</DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem className="text-destructive">Delete</DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
            <Dialog>
              <DialogTrigger asChild>
                <Button variant="outline">Open dialog</Button>
              </DialogTrigger>
              <DialogContent>
                <DialogHeader>
                  <DialogTitle>Switch to prevent mode?</DialogTitle>
                  <DialogDescription>
                    Matching actions will be denied in every scope of this policy.
                  </DialogDescription>
                </DialogHeader>
                <DialogFooter>
                  <DialogClose asChild>
                    <Button variant="outline">Cancel</Button>
                  </DialogClose>
                  <DialogClose asChild>
                    <Button>Switch</Button>
                  </DialogClose>
                </DialogFooter>
              </DialogContent>
            </Dialog>
            <Button
              variant="outline"
              onClick={() => setDialogError(new Error("The export could not be written."))}
            >
              Show error dialog
            </Button>
          </div>
          <ErrorDialog error={dialogError} onClose={() => setDialogError(null)} />
        </Section>

        <Section title="Text block">
          <Card>
            <CardContent className="pt-6" data-testid="text-block-sample">
              <TextBlock lines={4}>{markdownSample}</TextBlock>
            </CardContent>
          </Card>
          <Card>
            <CardContent className="pt-6">
              <TextBlock format="plain">A short plain-text block has no toggle.</TextBlock>
            </CardContent>
          </Card>
        </Section>

        <Section title="Empty states">
          <div className="grid gap-4 md:grid-cols-2">
            <EmptyState
              image="list"
              title="No policies deployed yet"
              description="Create a policy from the catalogue to see it listed here."
            />
            <EmptyState
              image="table"
              title="No events yet"
              description="Prevented actions, alerts and drifts appear here as they happen."
            />
          </div>
        </Section>
      </main>
    </div>
  );
}
