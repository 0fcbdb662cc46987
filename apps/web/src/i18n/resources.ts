import enAdmin from '../locales/en/admin.json';
import enAlarmLog from '../locales/en/alarm-log.json';
import enAmendments from '../locales/en/amendments.json';
import enAudit from '../locales/en/audit.json';
import enAuth from '../locales/en/auth.json';
import enCoding from '../locales/en/coding.json';
import enCommon from '../locales/en/common.json';
import enCrf from '../locales/en/crf.json';
import enDashboard from '../locales/en/dashboard.json';
import enData from '../locales/en/data.json';
import enDesignVersions from '../locales/en/design-versions.json';
import enDesigner from '../locales/en/designer.json';
import enErrors from '../locales/en/errors.json';
import enGuidelines from '../locales/en/guidelines.json';
import enHelp from '../locales/en/help.json';
import enHolds from '../locales/en/holds.json';
import enLab from '../locales/en/lab.json';
import enLanding from '../locales/en/landing.json';
import enMonitoring from '../locales/en/monitoring.json';
import enNotices from '../locales/en/notices.json';
import enNotifications from '../locales/en/notifications.json';
import enQueries from '../locales/en/queries.json';
import enRandomization from '../locales/en/randomization.json';
import enReports from '../locales/en/reports.json';
import enReviewListings from '../locales/en/review-listings.json';
import enSafety from '../locales/en/safety.json';
import enSdv from '../locales/en/sdv.json';
import enSession from '../locales/en/session.json';
import enShell from '../locales/en/shell.json';
import enSignature from '../locales/en/signature.json';
import enSubjects from '../locales/en/subjects.json';
import enSummary from '../locales/en/summary.json';
import enTaskAlarm from '../locales/en/task-alarm.json';
import enTaskList from '../locales/en/task-list.json';
import enTraining from '../locales/en/training.json';
import enUi from '../locales/en/ui.json';
import koAdmin from '../locales/ko/admin.json';
import koAlarmLog from '../locales/ko/alarm-log.json';
import koAmendments from '../locales/ko/amendments.json';
import koAudit from '../locales/ko/audit.json';
import koAuth from '../locales/ko/auth.json';
import koCoding from '../locales/ko/coding.json';
import koCommon from '../locales/ko/common.json';
import koCrf from '../locales/ko/crf.json';
import koDashboard from '../locales/ko/dashboard.json';
import koData from '../locales/ko/data.json';
import koDesignVersions from '../locales/ko/design-versions.json';
import koDesigner from '../locales/ko/designer.json';
import koErrors from '../locales/ko/errors.json';
import koGuidelines from '../locales/ko/guidelines.json';
import koHelp from '../locales/ko/help.json';
import koHolds from '../locales/ko/holds.json';
import koLab from '../locales/ko/lab.json';
import koLanding from '../locales/ko/landing.json';
import koMonitoring from '../locales/ko/monitoring.json';
import koNotices from '../locales/ko/notices.json';
import koNotifications from '../locales/ko/notifications.json';
import koQueries from '../locales/ko/queries.json';
import koRandomization from '../locales/ko/randomization.json';
import koReports from '../locales/ko/reports.json';
import koReviewListings from '../locales/ko/review-listings.json';
import koSafety from '../locales/ko/safety.json';
import koSdv from '../locales/ko/sdv.json';
import koSession from '../locales/ko/session.json';
import koShell from '../locales/ko/shell.json';
import koSignature from '../locales/ko/signature.json';
import koSubjects from '../locales/ko/subjects.json';
import koSummary from '../locales/ko/summary.json';
import koTaskAlarm from '../locales/ko/task-alarm.json';
import koTaskList from '../locales/ko/task-list.json';
import koTraining from '../locales/ko/training.json';
import koUi from '../locales/ko/ui.json';

/** Translation resources, one JSON file per namespace and language. Both languages are complete. */
export const resources = {
  ko: {
    admin: koAdmin,
    alarmLog: koAlarmLog,
    common: koCommon,
    landing: koLanding,
    guidelines: koGuidelines,
    notices: koNotices,
    errors: koErrors,
    auth: koAuth,
    session: koSession,
    shell: koShell,
    taskList: koTaskList,
    dashboard: koDashboard,
    help: koHelp,
    ui: koUi,
    crf: koCrf,
    subjects: koSubjects,
    signature: koSignature,
    randomization: koRandomization,
    taskAlarm: koTaskAlarm,
    queries: koQueries,
    sdv: koSdv,
    lab: koLab,
    data: koData,
    designer: koDesigner,
    designVersions: koDesignVersions,
    amendments: koAmendments,
    holds: koHolds,
    audit: koAudit,
    reports: koReports,
    reviewListings: koReviewListings,
    summary: koSummary,
    training: koTraining,
    monitoring: koMonitoring,
    notifications: koNotifications,
    coding: koCoding,
    safety: koSafety,
  },
  en: {
    admin: enAdmin,
    alarmLog: enAlarmLog,
    common: enCommon,
    landing: enLanding,
    guidelines: enGuidelines,
    notices: enNotices,
    errors: enErrors,
    auth: enAuth,
    session: enSession,
    shell: enShell,
    taskList: enTaskList,
    dashboard: enDashboard,
    help: enHelp,
    ui: enUi,
    crf: enCrf,
    subjects: enSubjects,
    signature: enSignature,
    randomization: enRandomization,
    taskAlarm: enTaskAlarm,
    queries: enQueries,
    sdv: enSdv,
    lab: enLab,
    data: enData,
    designer: enDesigner,
    designVersions: enDesignVersions,
    amendments: enAmendments,
    holds: enHolds,
    audit: enAudit,
    reports: enReports,
    reviewListings: enReviewListings,
    summary: enSummary,
    training: enTraining,
    monitoring: enMonitoring,
    notifications: enNotifications,
    coding: enCoding,
    safety: enSafety,
  },
} as const;
