import type { AuditEntry } from '@cdms/contract';

/**
 * Who made a change, as histories show it: the person's name and the study role they acted in,
 * "김민수 (CRC)" or "김연구 (PI, SI)"; the name alone without a role; `system` for changes the system
 * made itself. The server never sends the account's e-mail.
 */
export function auditPerson(entry: Pick<AuditEntry, 'actorName' | 'actorRole'>, system: string): string {
  if (entry.actorName === null) return system;
  const role = entry.actorRole?.split(',').join(', ');
  return role ? `${entry.actorName} (${role})` : entry.actorName;
}
