import { randomBytes } from 'node:crypto';
import { BENCH_PASSWORD, READER_EMAIL } from './build-study/bench-study.ts';
import { HttpClient, signIn } from './load/http-client.ts';
import { cpuMilliseconds, PeakRss, residentBytes } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

// The "uploads" scenario (issue 43): UPLOADS attachments of the largest size allowed (20 MB), sent at
// once, each on a connection of its own, as the data manager would attach documents. Before issue 43
// one 5 MB file ran the embedded server's 192 MB heap out; what matters is that every upload is
// answered 201 in seconds and that the server's resident set stays near where it was when idle.

export interface UploadsResult {
  db: string;
  uploads: number;
  megabytes: number;
  /** Seconds from sending all to the last answer, and each upload's own. */
  seconds: number;
  eachSeconds: number[];
  idleRssMb: number;
  peakRssMb: number;
  serverCpuMs: number;
  statuses: number[];
}

const UPLOADS = 4;
const MEGABYTES = 20;

function pdfBody(boundary: string, index: number): Buffer {
  const header = Buffer.from('%PDF-1.4\n');
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-${index}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    header,
    // Random, so that no two uploads are the same content (stored once).
    randomBytes(MEGABYTES * 1024 * 1024 - header.length),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

export async function measureUploads(
  server: RunningServer,
  workload: Workload,
  db: string,
): Promise<UploadsResult> {
  const clients = Array.from({ length: UPLOADS }, () => new HttpClient(server.url));
  try {
    const boundary = '----cdms-bench-upload';
    const sessions = await Promise.all(clients.map((client) => signIn(client, READER_EMAIL, BENCH_PASSWORD)));
    const bodies = clients.map((_, index) => pdfBody(boundary, index));
    const idleRssMb = residentBytes(server.pid) / (1024 * 1024);
    const peak = new PeakRss(server.pid);
    const cpuBefore = cpuMilliseconds(server.pid);
    const started = performance.now();
    const answers = await Promise.all(
      clients.map(async (client, index) => {
        const response = await client.request(
          'POST',
          `/api/studies/${workload.studyId}/attachments`,
          { ...sessions[index], 'content-type': `multipart/form-data; boundary=${boundary}` },
          bodies[index],
        );
        return { status: response.status, seconds: (performance.now() - started) / 1000 };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = peak.stop() / (1024 * 1024);
    return {
      db,
      uploads: UPLOADS,
      megabytes: MEGABYTES,
      seconds,
      eachSeconds: answers.map((answer) => answer.seconds),
      idleRssMb,
      peakRssMb,
      serverCpuMs: cpuMilliseconds(server.pid) - cpuBefore,
      statuses: answers.map((answer) => answer.status),
    };
  } finally {
    for (const client of clients) client.close();
  }
}
