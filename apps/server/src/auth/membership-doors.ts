/**
 * Members, roles, invitations, tenants and API keys change through Palisade's own methods only
 * (TeamService, TenantService), which check the caller's permission, apply the rate limits and
 * separation of duties, accept an invitation only with the token mailed to its address, and
 * write the audit record. The identity layer's own endpoints for the same things would be side
 * doors around all of that, so they answer 404. What the web app needs of them is kept: choosing
 * the active tenant among one's own, and listing them.
 */
export const membershipDisabledPaths = [
  "/organization/accept-invitation",
  "/organization/add-team-member",
  "/organization/cancel-invitation",
  "/organization/check-slug",
  "/organization/create",
  "/organization/create-role",
  "/organization/create-team",
  "/organization/delete",
  "/organization/delete-role",
  "/organization/get-active-member",
  "/organization/get-active-member-role",
  "/organization/get-full-organization",
  "/organization/get-invitation",
  "/organization/get-organization",
  "/organization/get-role",
  "/organization/has-permission",
  "/organization/invite-member",
  "/organization/leave",
  "/organization/list-invitations",
  "/organization/list-members",
  "/organization/list-roles",
  "/organization/list-team-members",
  "/organization/list-teams",
  "/organization/list-user-invitations",
  "/organization/list-user-teams",
  "/organization/reject-invitation",
  "/organization/remove-member",
  "/organization/remove-team",
  "/organization/remove-team-member",
  "/organization/set-active-team",
  "/organization/update",
  "/organization/update-member-role",
  "/organization/update-role",
  "/organization/update-team",
  "/api-key/create",
  "/api-key/delete",
  "/api-key/get",
  "/api-key/list",
  "/api-key/update",
];

/** The identity layer's membership endpoints that stay open (see above). */
export const membershipOpenPaths = ["/organization/set-active", "/organization/list"];
