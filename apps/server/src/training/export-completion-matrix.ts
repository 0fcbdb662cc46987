import { koreaDateTimeWithZone } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { csvField, recordListExport } from '../subjects/subject-export.ts';
import { completionMatrixAll, type MatrixFilters, requireTrainingManager } from './completion-matrix.ts';

const words = {
  name: { ko: '이름', en: 'Name' },
  roles: { ko: '역할', en: 'Roles' },
  completed: { ko: '이수', en: 'Completed' },
  outdated: { ko: '이전 버전 이수', en: 'Outdated' },
  not_done: { ko: '미이수', en: 'Not done' },
  notRequired: { ko: '해당 없음', en: 'Not required' },
} as const;

/**
 * The completion matrix as CSV (UTF-8 with BOM, CRLF; one row per member, a column per published
 * module), DM and ADMIN, audited with its filters before it is returned.
 */
export async function exportCompletionMatrix(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  filters: MatrixFilters,
  language: 'ko' | 'en',
): Promise<{ csv: string; fileName: string }> {
  requireTrainingManager(principal, studyId);
  const { modules, rows } = await completionMatrixAll(db, studyId, filters);
  const studyCode = await readStudyCode(db, studyId);
  await recordListExport(db, actor, studyId, 'training.matrix_exported', {
    format: 'csv',
    filter: filters,
    rows: rows.length,
  });
  const header = [
    words.name[language],
    words.roles[language],
    ...modules.map((m) => `${m.title} (v${m.version})`),
  ];
  const lines = rows.map((row) => [
    row.name,
    row.roles.join(' '),
    ...row.cells.map((cell) => {
      if (cell.status === null) return words.notRequired[language];
      const when = cell.completedAt ? ` ${koreaDateTimeWithZone(cell.completedAt)} v${cell.version}` : '';
      return `${words[cell.status][language]}${cell.status === 'not_done' ? '' : when}`;
    }),
  ]);
  const csv = `\uFEFF${[header, ...lines].map((line) => line.map((cell) => csvField(cell)).join(',')).join('\r\n')}\r\n`;
  return { csv, fileName: `${studyCode}_training_matrix.csv` };
}
