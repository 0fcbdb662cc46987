import { type DraftDefinition, designerClient, discardLeftDraft } from './amendment-client.ts';
import { cpuMilliseconds, PeakRss, postgresCpuMilliseconds } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

// The "amendment impact" measurement (issue 49 item 6: impact analysis of the 5,000-subject study in
// under 30 s with flat memory). The data manager opens an amendment, drafts a next version that touches
// every subject — a new required item on the first form (each saved copy becomes incomplete) and a
// wider range on the first item that has one (its range queries are judged again) — and runs the
// analysis through the API: seconds, the server's peak resident set, CPU, and the rows it found. The
// amendment is discarded after, so a kept database (`--reuse`) is as it was.

export interface AmendmentImpactResult {
  db: string;
  subjects: number;
  seconds: number;
  peakRssMb: number;
  serverCpuSeconds: number;
  postgresCpuSeconds: number | null;
  /** Rows of the analysis and subjects analyzed. */
  rows: number;
  analyzedSubjects: number;
}

interface Draft {
  draft: { revision: number; definition: DraftDefinition } | null;
}
interface Impact {
  impact: { subjects: number; byKind: Record<string, { rows: number; subjects: number }> } | null;
}

export async function measureAmendmentImpact(
  server: RunningServer,
  workload: Workload,
  db: string,
): Promise<AmendmentImpactResult> {
  const designer = await designerClient(server);
  const call = designer.call;
  try {
    const base = `/api/studies/${workload.studyId}/amendments`;
    await discardLeftDraft(designer, base);
    const { id } = (await call('POST', base, {
      number: `BENCH-${Date.now()}`,
      reason: 'bench: impact analysis',
      sites: [],
    })) as { id: number };

    const draftPath = `/api/studies/${workload.studyId}/design-draft`;
    const { draft } = (await call('GET', draftPath)) as Draft;
    if (!draft) throw new Error('an opened amendment has a design draft');
    await call('PUT', draftPath, { baseRevision: draft.revision, definition: touched(draft.definition) });

    const peak = new PeakRss(server.pid);
    const cpuBefore = cpuMilliseconds(server.pid);
    const postgresBefore = db === 'postgres' ? postgresCpuMilliseconds() : 0;
    const started = performance.now();
    const { impact } = (await call('POST', `${base}/${id}/impact`)) as Impact;
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = cpuMilliseconds(server.pid) - cpuBefore;
    const postgresCpu = db === 'postgres' ? postgresCpuMilliseconds() - postgresBefore : null;
    const peakRss = peak.stop();
    await call('POST', `${base}/${id}/discard`, { reason: 'bench: measured' });
    if (!impact) throw new Error('the analysis answered no impact');
    return {
      db,
      subjects: workload.subjects,
      seconds,
      peakRssMb: peakRss / (1024 * 1024),
      serverCpuSeconds: serverCpu / 1000,
      postgresCpuSeconds: postgresCpu === null ? null : postgresCpu / 1000,
      rows: Object.values(impact.byKind).reduce((sum, kind) => sum + kind.rows, 0),
      analyzedSubjects: impact.subjects,
    };
  } finally {
    designer.close();
  }
}

/** The draft with a new required item on its first form and the first range widened. */
function touched(definition: DraftDefinition): DraftDefinition {
  const next = structuredClone(definition);
  const section = next.forms[0]?.sections.find((candidate) => !candidate.repeating);
  if (!section) throw new Error('the bench study has no form with a plain section');
  section.items.push({
    key: 'benchAmendmentItem',
    type: 'integer',
    label: { ko: '변경 항목', en: 'Amendment item' },
    required: true,
  });
  const ranged = next.forms
    .flatMap((form) => form.sections.flatMap((candidate) => candidate.items))
    .find((item) => typeof item.max === 'number' && item.derive === undefined);
  if (ranged) ranged.max = (ranged.max as number) + 10;
  return next;
}
