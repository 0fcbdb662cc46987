import {
  type DesignerClient,
  type DraftDefinition,
  designerClient,
  discardLeftDraft,
} from './amendment-client.ts';
import { BENCH_PASSWORD } from './build-study/bench-study.ts';
import { cpuMilliseconds, PeakRss, postgresCpuMilliseconds } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

// The "amendment migration" measurement (issue 49 item 6: every subject of the 5,000-subject study
// moved to an amendment's version in under 2 minutes). The data manager opens an amendment whose next
// version renames the first form's first plain item (a value of every subject moves) and adds a required
// item there, runs the impact analysis, publishes it with the signature and starts the study's
// migration; the job is followed through the API until it is done: seconds, subjects per second, the
// server's peak resident set, CPU. Around it, the per-form tables (CSV) of every subject are exported
// twice: as of the current version while no subject is migrated yet (every form moved in memory), and
// as entered once all are (every migration's change undone from its audit record). A publication cannot be undone: a kept database (`--reuse`) measured
// again carries one more version, and the next run's amendment starts from it.

export interface AmendmentMigrationResult {
  db: string;
  subjects: number;
  seconds: number;
  migrated: number;
  held: number;
  failed: number;
  subjectsPerSecond: number;
  peakRssMb: number;
  serverCpuSeconds: number;
  postgresCpuSeconds: number | null;
  /** The table exports around the migration: values written, seconds, server's peak resident set. */
  tablesAsOfCurrentBeforeMigration: TableExportResult;
  tablesAsEnteredAfterMigration: TableExportResult;
}

export interface TableExportResult {
  values: number;
  seconds: number;
  peakRssMb: number;
}

interface Migrations {
  migrations: { status: string; total: number; migrated: number; held: number; failed: number }[];
}

export async function measureAmendmentMigration(
  server: RunningServer,
  workload: Workload,
  db: string,
): Promise<AmendmentMigrationResult> {
  const designer = await designerClient(server);
  const call = designer.call;
  try {
    const base = `/api/studies/${workload.studyId}/amendments`;
    await discardLeftDraft(designer, base);
    const fields = { number: `BENCH-M-${Date.now()}`, reason: 'bench: migration', sites: [] };
    const { id } = (await call('POST', base, fields)) as { id: number };
    const draftPath = `/api/studies/${workload.studyId}/design-draft`;
    const { draft } = (await call('GET', draftPath)) as {
      draft: { revision: number; definition: DraftDefinition };
    };
    const { definition, rename } = renamedAndAdded(draft.definition);
    await call('PUT', draftPath, { baseRevision: draft.revision, definition });
    await call('PUT', `${base}/${id}`, { ...fields, declarations: { itemRenames: [rename] } });
    const { changeSet } = (await call('GET', `${base}/${id}?lang=en`)) as {
      changeSet: { ready: boolean; questions: { text: string }[]; refusals: { text: string }[] } | null;
    };
    if (!changeSet?.ready)
      throw new Error(
        `the bench amendment is not ready: ${JSON.stringify([...(changeSet?.questions ?? []), ...(changeSet?.refusals ?? [])].map((line) => line.text))}`,
      );
    await call('POST', `${base}/${id}/impact`);
    await call('POST', `${base}/${id}/publish`, { password: BENCH_PASSWORD });
    const exportsPath = `/api/studies/${workload.studyId}/data-exports`;
    const tablesAsOfCurrentBeforeMigration = await timeTableExport(designer, server, exportsPath, 'current');

    const peak = new PeakRss(server.pid);
    const cpuBefore = cpuMilliseconds(server.pid);
    const postgresBefore = db === 'postgres' ? postgresCpuMilliseconds() : 0;
    const started = performance.now();
    await call('POST', `${base}/${id}/migrations`, { scope: 'study' });
    let job: Migrations['migrations'][number] | undefined;
    for (;;) {
      job = ((await call('GET', `${base}/${id}/migrations`)) as Migrations).migrations[0];
      if (job?.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = cpuMilliseconds(server.pid) - cpuBefore;
    const postgresCpu = db === 'postgres' ? postgresCpuMilliseconds() - postgresBefore : null;
    const peakRss = peak.stop();
    const tablesAsEnteredAfterMigration = await timeTableExport(designer, server, exportsPath, 'entered');
    return {
      tablesAsOfCurrentBeforeMigration,
      tablesAsEnteredAfterMigration,
      db,
      subjects: workload.subjects,
      seconds,
      migrated: job.migrated,
      held: job.held,
      failed: job.failed,
      subjectsPerSecond: job.migrated / seconds,
      peakRssMb: peakRss / (1024 * 1024),
      serverCpuSeconds: serverCpu / 1000,
      postgresCpuSeconds: postgresCpu === null ? null : postgresCpu / 1000,
    };
  } finally {
    designer.close();
  }
}

/**
 * The draft with an item renamed — a plain item no rule, check or other form names,
 * so renaming it touches nothing else — and a required item added beside it.
 */
function renamedAndAdded(current: DraftDefinition): {
  definition: DraftDefinition;
  rename: { form: string; from: string; to: string };
} {
  const definition = structuredClone(current);
  const [major = '1', minor = '0'] = definition.version.split('.');
  definition.version = `${major}.${Number(minor) + 1}.0`;
  const text = JSON.stringify(current);
  const unreferenced = (candidate: Record<string, unknown>) =>
    candidate.derive === undefined && text.split(`"${candidate.key as string}"`).length === 2;
  const form = definition.forms.find((candidate) =>
    candidate.sections.some((entry) => !entry.repeating && entry.items.some(unreferenced)),
  );
  const section = form?.sections.find((entry) => !entry.repeating && entry.items.some(unreferenced));
  const item = section?.items.find(unreferenced);
  if (!form || !section || !item)
    throw new Error('the bench study has no form with an unreferenced plain item');
  const from = item.key as string;
  const to = `${from}Moved`;
  item.key = to;
  section.items.push({
    key: `benchMigrationItem${minor}`,
    type: 'integer',
    label: { ko: '변경 항목', en: 'Amendment item' },
    required: true,
  });
  return { definition, rename: { form: form.key, from, to } };
}

/** One per-form tables export (CSV) of every subject, started and polled until done. */
async function timeTableExport(
  designer: DesignerClient,
  server: RunningServer,
  exportsPath: string,
  valuesAsOf: 'current' | 'entered',
): Promise<TableExportResult> {
  const peak = new PeakRss(server.pid);
  const started = performance.now();
  const { id } = (await designer.call('POST', exportsPath, {
    format: 'tables-csv',
    scope: {},
    auditTrail: false,
    valuesAsOf,
  })) as { id: number };
  for (;;) {
    const job = (await designer.call('GET', `${exportsPath}/${id}`)) as {
      state: string;
      valuesDone: number;
      error: string | null;
    };
    if (job.state === 'done')
      return {
        values: job.valuesDone,
        seconds: (performance.now() - started) / 1000,
        peakRssMb: peak.stop() / (1024 * 1024),
      };
    if (job.state !== 'queued' && job.state !== 'running') {
      peak.stop();
      throw new Error(`the tables export (${valuesAsOf}) ended ${job.state}: ${job.error}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
