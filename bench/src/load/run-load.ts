// A closed-loop load generator: N virtual users, each sending its next request as soon as the
// previous one is answered, for a fixed time. Every request's latency is kept, so the percentiles
// are exact (no histogram buckets). A response outside 2xx is an error of the scenario.

export interface RequestOutcome {
  status: number;
  /** Why it failed, kept for the first few errors. */
  body?: string;
}

/** One virtual user: sends one request per call. */
export type VirtualUser = () => Promise<RequestOutcome>;

export interface LoadResult {
  requests: number;
  errors: number;
  errorSamples: string[];
  elapsedMs: number;
  /** Sorted ascending, milliseconds. */
  latencies: number[];
}

export interface LoadOptions {
  users: VirtualUser[];
  durationMs: number;
  /** At least this many requests in all, however long they take (exports of a large study are slow). */
  minimumRequests?: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const minimum = options.minimumRequests ?? 0;
  await Promise.all(
    options.users.map(async (user) => {
      while (performance.now() < deadline || latencies.length < minimum) {
        const sent = performance.now();
        let outcome: RequestOutcome;
        try {
          outcome = await user();
        } catch (error) {
          outcome = { status: 0, body: String(error) };
        }
        latencies.push(performance.now() - sent);
        if (outcome.status < 200 || outcome.status > 299) {
          errors += 1;
          if (errorSamples.length < 5)
            errorSamples.push(`${outcome.status} ${(outcome.body ?? '').slice(0, 300)}`);
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, errorSamples, elapsedMs, latencies };
}

/** The p-th percentile (0–100) of sorted values, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}
