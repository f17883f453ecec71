// @vitest-environment jsdom

import { createQueryOptions } from "@connectrpc/connect-query";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { useQuery } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appTransport } from "@/lib/transport";
import { createTestQueryClient, RpcProviders, serveRoutes } from "@/test-support/router-transport";
import { TenantSwitcher } from "./tenant-switcher";

vi.mock("@/lib/transport", async (importOriginal) =>
  (await import("@/test-support/router-transport")).routedTransportModule(importOriginal),
);

const session = vi.hoisted(() => ({ active: "t-a" }));
vi.mock("@/lib/auth-client", () => ({
  authClient: {
    organization: {
      setActive: async ({ organizationId }: { organizationId: string }) => {
        session.active = organizationId;
        return { data: {}, error: null };
      },
    },
  },
}));
const routerInvalidate = vi.hoisted(() => vi.fn(async () => {}));
vi.mock("@tanstack/react-router", () => ({ useRouter: () => ({ invalidate: routerInvalidate }) }));

const tenants = [
  { id: "t-a", name: "Acme" },
  { id: "t-b", name: "Globex" },
];
const membersOf: Record<string, { id: string; name: string; email: string; role: Role }[]> = {
  "t-a": [{ id: "m-a", name: "Alice of Acme", email: "alice@acme.test", role: Role.VIEWER }],
  "t-b": [{ id: "m-b", name: "Bob of Globex", email: "bob@globex.test", role: Role.VIEWER }],
};

/** A page of the signed-in area: the tenant's members, as read through the app's cache. */
function MembersPage() {
  const { data, isPending } = useQuery(
    createQueryOptions(TeamService.method.listMembers, {}, { transport: appTransport }),
  );
  if (isPending) return <p>Loading members</p>;
  return (
    <ul aria-label="Members">
      {data?.items.map((member) => (
        <li key={member.id}>{member.name}</li>
      ))}
    </ul>
  );
}

describe("switching tenant", { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it("drops every answer of the previous tenant: its members are not on screen while the new tenant's load", async () => {
    // The new tenant's members arrive only when the test lets them.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    serveRoutes((router) => {
      router.service(TenantService, {
        getCurrent: () => ({
          tenant: tenants.find((t) => t.id === session.active),
          tenants,
          user: { id: "u-1", email: "alice@acme.test" },
        }),
      });
      router.service(TeamService, {
        listMembers: async () => {
          const tenant = session.active;
          if (tenant === "t-b") await held;
          return { items: membersOf[tenant] };
        },
      });
    });
    render(
      <RpcProviders client={createTestQueryClient()}>
        <TenantSwitcher />
        <MembersPage />
      </RpcProviders>,
    );
    await screen.findByText("Alice of Acme");
    const trigger = screen.getByRole("button", { name: "Switch tenant" });
    await waitFor(() => expect(trigger.textContent).toContain("Acme"));

    fireEvent.keyDown(trigger, { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitem", { name: "Globex" }));

    await waitFor(() => expect(session.active).toBe("t-b"));
    await waitFor(() => expect(screen.queryByText("Alice of Acme")).toBeNull());
    expect(screen.getByText("Loading members")).toBeTruthy();
    expect(screen.queryByText("Bob of Globex")).toBeNull();

    release();
    await screen.findByText("Bob of Globex");
    expect(screen.queryByText("Alice of Acme")).toBeNull();
    expect(routerInvalidate).toHaveBeenCalled();
  });
});
