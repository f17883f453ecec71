export const markdownSample = `### Deny leaving the organisation

This guardrail stops any account from calling \`organizations:LeaveOrganization\`. An account that leaves
the organisation is no longer bound by its service control policies, so every other guardrail would stop
applying to it at once.

**Why it matters**

- Security tooling, logging and billing controls are attached at the organisation level.
- A compromised administrator could detach an account to hide activity.
- Rejoining an organisation needs a new invitation and a manual handshake.

**What breaks**

Nothing in day-to-day work. Moving an account between organisations needs a short waiver, requested with
the policy key from the deny message.

Read the [AWS documentation on leaving an organisation](https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_accounts_remove.html)
for the full procedure. Links with unsafe protocols are removed: [this one does nothing](javascript:alert('blocked')).

Rollout tip: deploy in alert mode for a week, review the alerts on the Events page, then switch to prevent.
`;
