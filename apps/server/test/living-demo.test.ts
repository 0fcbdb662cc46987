import { describe } from 'vitest';
import { demoFigureChecks } from '../src/dashboard/demo-figures.checks.ts';
import { demoPhotoChecks } from '../src/form-photos/demo-photos.checks.ts';
import { demoGuidelineChecks } from '../src/guidelines/demo-guidelines.checks.ts';
import { demoNotificationChecks } from '../src/notifications/demo-notifications.checks.ts';
import { odmOverDemoChecks } from '../src/odm/odm-over-demo.checks.ts';
import { demoReportChecks } from '../src/reports/demo-reports.checks.ts';
import { livingDemoSeedChecks } from '../src/seed/demo-seed.checks.ts';
import { demoSummaryChecks } from '../src/summary/demo-summary.checks.ts';
import { demoTrainingChecks } from '../src/training/demo-training.checks.ts';
import { demoUnscheduledVisitChecks } from '../src/unscheduled-visits/demo-unscheduled-visits.checks.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * The living demo (a copy of the one the test databases seed once per run), checked several ways: its data as planned
 * (src/seed/demo-seed.checks.ts) and the dashboard, popup, list and alarms over it against the
 * tables (src/dashboard/demo-figures.checks.ts), and its ODM exports against the official schemas
 * (src/odm/odm-over-demo.checks.ts), the reports and the study summary against the tables
 * (src/reports/, src/summary/). All only read, so they share one copy.
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
    // Last: the reminder writes to the outbox, which the checks above do not read.
    describe('its notifications', () => demoNotificationChecks(database));
  },
  { seed: 'living-demo' },
);
