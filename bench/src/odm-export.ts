import { BENCH_PASSWORD, READER_EMAIL } from './build-study/bench-study.ts';
import { HttpClient, signIn } from './load/http-client.ts';
import { percentile } from './load/run-load.ts';
import { cpuMilliseconds, PeakRss, postgresCpuMilliseconds } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

// The "ODM export" scenario (issue 16): one export of every subject through the API, as the data
// manager would — start, then poll until done — with the server's peak resident set over the run and,
// beside it, a light read (subject-info) every READ_EVERY_MS on a connection of its own, to show the
// server still answers while it exports, and how fast. The reads are paced like a person's clicks
// (far faster, in fact), not a closed loop: a loop as fast as the server answers would measure how
// the two cores are shared between the export and a flood of reads, not whether others are served.

export interface OdmExportResult {
  db: string;
  subjects: number;
  values: number;
  seconds: number;
  valuesPerSecond: number;
  peakRssMb: number;
  /**
   * CPU per 1,000 values over the whole run (the reads beside it included): the server process's
   * and PostgreSQL's (null on PGlite). Less bent by other work on the machine than the wall time.
   */
  serverCpuMsPerThousandValues: number;
  postgresCpuMsPerThousandValues: number | null;
  /** The subject-info reads during the export: how many, and their latency. */
  concurrentReads: { requests: number; errors: number; p50Ms: number; p95Ms: number; maxMs: number };
  state: string;
  /**
   * The finished file downloaded once, as the data manager does (issue 46 item 3): its size, time
   * and the server's peak resident set while it streams.
   */
  download: { bytes: number; seconds: number; peakRssMb: number };
}

const POLL_MS = 200;
const READ_EVERY_MS = 100;

interface ExportJob {
  id: number;
  state: string;
  valuesTotal: number | null;
  valuesDone: number;
  error: string | null;
}

export async function measureOdmExport(
  server: RunningServer,
  workload: Workload,
  db: string,
): Promise<OdmExportResult> {
  const client = new HttpClient(server.url);
  const reader = new HttpClient(server.url);
  try {
    const headers = await signIn(client, READER_EMAIL, BENCH_PASSWORD);
    const readerHeaders = await signIn(reader, READER_EMAIL, BENCH_PASSWORD);
    const base = `/api/studies/${workload.studyId}/data-exports`;
    const peak = new PeakRss(server.pid);
    const cpuBefore = cpuMilliseconds(server.pid);
    const postgresBefore = db === 'postgres' ? postgresCpuMilliseconds() : 0;
    const started = performance.now();
    const start = await client.request(
      'POST',
      base,
      { ...headers, 'content-type': 'application/json' },
      JSON.stringify({ format: 'odm-1.3.2', scope: {}, auditTrail: false }),
    );
    if (start.status !== 201) throw new Error(`starting the export: ${start.status} ${start.body}`);
    const { id } = JSON.parse(start.body) as ExportJob;

    let finished = false;
    const latencies: number[] = [];
    let readErrors = 0;
    const reads = (async () => {
      while (!finished) {
        const before = performance.now();
        const response = await reader.request(
          'GET',
          `/api/studies/${workload.studyId}/subject-info`,
          readerHeaders,
        );
        const took = performance.now() - before;
        latencies.push(took);
        if (response.status !== 200) readErrors += 1;
        if (took < READ_EVERY_MS) await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS - took));
      }
    })();

    let job: ExportJob;
    for (;;) {
      const response = await client.request('GET', `${base}/${id}`, headers);
      if (response.status !== 200) throw new Error(`reading the export: ${response.status} ${response.body}`);
      job = JSON.parse(response.body) as ExportJob;
      if (job.state !== 'queued' && job.state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const seconds = (performance.now() - started) / 1000;
    finished = true;
    await reads;
    const serverCpu = cpuMilliseconds(server.pid) - cpuBefore;
    const postgresCpu = db === 'postgres' ? postgresCpuMilliseconds() - postgresBefore : null;
    const peakRss = peak.stop();
    if (job.state !== 'done') throw new Error(`the export ended ${job.state}: ${job.error ?? ''}`);
    latencies.sort((a, b) => a - b);
    const download = await measureDownload(server, client, `${base}/${id}/download`, headers);
    return {
      db,
      subjects: workload.subjects,
      values: job.valuesDone,
      seconds,
      valuesPerSecond: job.valuesDone / seconds,
      peakRssMb: peakRss / (1024 * 1024),
      serverCpuMsPerThousandValues: (serverCpu * 1000) / Math.max(1, job.valuesDone),
      postgresCpuMsPerThousandValues:
        postgresCpu === null ? null : (postgresCpu * 1000) / Math.max(1, job.valuesDone),
      concurrentReads: {
        requests: latencies.length,
        errors: readErrors,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        maxMs: latencies.at(-1) ?? 0,
      },
      state: job.state,
      download,
    };
  } finally {
    client.close();
    reader.close();
  }
}

async function measureDownload(
  server: RunningServer,
  client: HttpClient,
  path: string,
  headers: Record<string, string>,
): Promise<OdmExportResult['download']> {
  const peak = new PeakRss(server.pid);
  const started = performance.now();
  const response = await client.download(path, headers);
  const seconds = (performance.now() - started) / 1000;
  const peakRss = peak.stop();
  if (response.status !== 200) throw new Error(`downloading the export: ${response.status}`);
  return { bytes: response.bytes, seconds, peakRssMb: peakRss / (1024 * 1024) };
}
