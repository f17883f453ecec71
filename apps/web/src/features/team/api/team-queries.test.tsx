// @vitest-environment jsdom
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { type Member, MemberSchema, TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { useQuery } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestQueryClient, RpcProviders, serveRoutes } from "@/test-support/router-transport";
import { MembersSection } from "../components/members-section";
import { invitationsQuery, useChangeRole } from "./team-queries";

vi.mock("@/lib/transport", async (importOriginal) =>
  (await import("@/test-support/router-transport")).routedTransportModule(importOriginal),
);

function MakeEditor({ memberId }: { memberId: string }) {
  const change = useChangeRole();
  return (
    <button type="button" onClick={() => change.mutate({ memberId, role: Role.EDITOR })}>
      Make editor
    </button>
  );
}

/** Counts the invitation list's reads, to show a role change leaves it alone. */
function Invitations() {
  const { data } = useQuery(invitationsQuery());
  return <p>{data ? `${data.invitations.length} invitations` : "reading invitations"}</p>;
}

function roleCell(name: string) {
  const row = screen.getByText(name).closest("tr");
  if (!row) throw new Error(`no row for ${name}`);
  const cell = row.querySelector('[data-label="Role"]');
  if (!cell) throw new Error(`no role cell for ${name}`);
  return cell;
}

describe("the team list and its changes", { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it("changing a member's role reads the member list again, and only that list", async () => {
    const members: Member[] = [
      create(MemberSchema, { id: "m-1", name: "Vera Viewer", email: "vera@example.test", role: Role.VIEWER }),
    ];
    const reads = { members: 0, invitations: 0 };
    serveRoutes((router) =>
      router.service(TeamService, {
        listMembers: () => {
          reads.members += 1;
          return { items: members.map((m) => ({ ...m })) };
        },
        listInvitations: () => {
          reads.invitations += 1;
          return { invitations: [] };
        },
        changeRole: ({ memberId, role }) => {
          const member = members.find((m) => m.id === memberId);
          if (!member) throw new ConnectError("No such member", Code.NotFound);
          member.role = role;
          return { member };
        },
      }),
    );
    render(
      <RpcProviders client={createTestQueryClient()}>
        <MembersSection canWrite={false} />
        <Invitations />
        <MakeEditor memberId="m-1" />
      </RpcProviders>,
    );
    await screen.findByText("Vera Viewer");
    await screen.findByText("0 invitations");
    expect(roleCell("Vera Viewer").textContent).toBe("Viewer");
    expect(reads).toEqual({ members: 1, invitations: 1 });

    fireEvent.click(screen.getByRole("button", { name: "Make editor" }));

    await waitFor(() => expect(roleCell("Vera Viewer").textContent).toBe("Editor"));
    expect(reads).toEqual({ members: 2, invitations: 1 });
  });

  it("shows a refused read as the server's reason with the next step, in place of the list", async () => {
    serveRoutes((router) =>
      router.service(TeamService, {
        listMembers: () => {
          throw new ConnectError("Your role may not list the members of this tenant.", Code.PermissionDenied);
        },
      }),
    );
    render(
      <RpcProviders client={createTestQueryClient()}>
        <MembersSection canWrite={false} />
      </RpcProviders>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(
      "Your role may not list the members of this tenant. Ask an administrator of this tenant to make the change or to give you a role that may.",
    );
    expect(screen.queryByRole("table", { name: "Members" })).toBeNull();
  });
});
