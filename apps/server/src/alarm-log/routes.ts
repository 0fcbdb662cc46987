import {
  alarmLogDownloadQuerySchema,
  alarmLogParamsSchema,
  alarmLogQuerySchema,
  alarmLogResponseSchema,
  todayInKorea,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { alarmLogFile } from './export-alarm-log.ts';
import { listAlarmLog } from './list-alarm-log.ts';

/** Issue 18 item 4: every notification the system raised for a study, with its delivery status. */
export function registerAlarmLogRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['alarm log'];

  app.get(
    '/api/studies/:studyId/alarm-log',
    {
      config: { access: { study: 'alarm_log.read' } },
      schema: {
        tags,
        summary: 'Notifications raised for the study, newest first, filtered and paged (CRA, DM, ADMIN)',
        params: alarmLogParamsSchema,
        querystring: alarmLogQuerySchema,
        response: {
          200: alarmLogResponseSchema,
          ...refusals({ 403: 'The role may not read the alarm log (CRA, DM and ADMIN may) (`forbidden`).' }),
        },
      },
    },
    async (request) =>
      listAlarmLog(db, principalOf(request), request.params.studyId, request.query, requestLanguage(request)),
  );

  app.get(
    '/api/studies/:studyId/alarm-log/download',
    {
      config: { access: { study: 'alarm_log.read' } },
      schema: {
        tags,
        summary: 'The alarm log as CSV (UTF-8 with BOM) or XLSX, every entry under the filters (audited)',
        params: alarmLogParamsSchema,
        querystring: alarmLogDownloadQuerySchema,
        response: {
          200: fileAnswer('The alarm log as CSV or XLSX.', tableFileTypes),
          ...refusals({ 403: 'The role may not read the alarm log (CRA, DM and ADMIN may) (`forbidden`).' }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      const { format, ...filters } = request.query;
      // Checks membership, permission and filters (throws) before anything is audited or sent.
      const file = alarmLogFile(db, principal, studyId, filters, format, requestLanguage(request));
      const studyCode = await readStudyCode(db, studyId);
      // Recipients' addresses leaving the system are audited, with the filters, before the first byte.
      await recordListExport(db, actorOf(request), studyId, 'alarm_log.exported', {
        format,
        filter: filters,
      });
      const name = { studyCode, today: todayInKorea(), what: 'alarm_log' };
      return sendListExport(reply, format, name, await file);
    },
  );
}
