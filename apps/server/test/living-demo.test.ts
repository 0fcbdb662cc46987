import { describe } from 'vitest';
import { demoBlindingChecks } from './demo-checks/demo-blinding.checks.ts';
import { demoCodingChecks } from './demo-checks/demo-coding.checks.ts';
import { demoFigureChecks } from './demo-checks/demo-figures.checks.ts';
import { demoGuidelineChecks } from './demo-checks/demo-guidelines.checks.ts';
import { demoNotificationChecks } from './demo-checks/demo-notifications.checks.ts';
import { demoPhotoChecks } from './demo-checks/demo-photos.checks.ts';
import { demoReportChecks } from './demo-checks/demo-reports.checks.ts';
import { demoSafetyChecks } from './demo-checks/demo-safety.checks.ts';
import { livingDemoSeedChecks } from './demo-checks/demo-seed.checks.ts';
import { demoSummaryChecks } from './demo-checks/demo-summary.checks.ts';
import { demoTrainingChecks } from './demo-checks/demo-training.checks.ts';
import { demoUnscheduledVisitChecks } from './demo-checks/demo-unscheduled-visits.checks.ts';
import { odmOverDemoChecks } from './demo-checks/odm-over-demo.checks.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * The living demo (a copy of the one the test databases seed once per run), checked several ways: its data as planned
 * (demo-checks/demo-seed.checks.ts) and the dashboard, popup, list and alarms over it against the
 * tables (demo-checks/demo-figures.checks.ts), and its ODM exports against the official schemas
 * (demo-checks/odm-over-demo.checks.ts), the reports and the study summary against the tables
 * (demo-checks/demo-reports.checks.ts, demo-summary.checks.ts). All only read, so they share one copy.
 */
describeWithDatabase(
  'the living demo',
  (database) => {
    describe('as seeded', () => livingDemoSeedChecks(database));
    describe('dashboard and list over it', () => demoFigureChecks(database));
    describe('its ODM exports', () => odmOverDemoChecks(database));
    describe('the standard reports over it', () => demoReportChecks(database));
    describe('the study summary over it', () => demoSummaryChecks(database));
    describe('its training', () => demoTrainingChecks(database));
    describe('its guidelines and task notice', () => demoGuidelineChecks(database));
    describe('its unscheduled visits', () => demoUnscheduledVisitChecks(database));
    describe('its eardrum photos', () => demoPhotoChecks(database));
    describe('its emergency unblinding', () => demoBlindingChecks(database));
    describe('its coding desk', () => demoCodingChecks(database));
    describe('its SAE reports', () => demoSafetyChecks(database));
    // Last: the reminder writes to the outbox, which the checks above do not read.
    describe('its notifications', () => demoNotificationChecks(database));
  },
  { seed: 'living-demo' },
);
