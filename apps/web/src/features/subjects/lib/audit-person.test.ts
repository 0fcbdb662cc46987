import { describe, expect, it } from 'vitest';
import { auditPerson } from './audit-person.ts';

describe('who made a change', () => {
  it('reads as the name and the role held', () => {
    expect(auditPerson({ actorName: '김민수', actorRole: 'CRC' }, '시스템')).toBe('김민수 (CRC)');
    expect(auditPerson({ actorName: '김연구', actorRole: 'PI,SI' }, '시스템')).toBe('김연구 (PI, SI)');
    expect(auditPerson({ actorName: '관리자', actorRole: null }, '시스템')).toBe('관리자');
    expect(auditPerson({ actorName: null, actorRole: null }, '시스템')).toBe('시스템');
  });
});
