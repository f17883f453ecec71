/** What other modules may use of the audit log: recording a change in the transaction that makes it. */
export { recordAccountAudit, recordAudit, recordAuditAs, recordChange, recordSystemAudit } from "./audit-log";
