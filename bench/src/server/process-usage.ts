import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

// CPU time and memory of processes from Linux's /proc: utime + stime of /proc/<pid>/stat (in clock
// ticks, USER_HZ = 100 on Linux) and the resident set of /proc/<pid>/status.

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process has used so far, in milliseconds. */
export function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / TICKS_PER_SECOND;
}

/** CPU time of every PostgreSQL process (server, backends, background workers) on this machine. */
export function postgresCpuMilliseconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) total += cpuMilliseconds(Number(entry));
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return match?.[1] ? Number(match[1]) * 1024 : 0;
}

/**
 * The peak resident set over a stretch of time: the kernel's high-water mark, reset at the start
 * (writing 5 to clear_refs), and, where the reset is refused, the highest of samples every 50 ms.
 */
export class PeakRss {
  private sampled = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly kernelMarkReset: boolean;

  constructor(private readonly pid: number) {
    this.kernelMarkReset = resetHighWaterMark(pid);
    this.sample();
    this.timer = setInterval(() => this.sample(), 50);
  }

  private sample(): void {
    try {
      this.sampled = Math.max(this.sampled, statusField(this.pid, 'VmRSS'));
    } catch {
      // The process is gone; the peak so far stands.
    }
  }

  /** Bytes. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    if (!this.kernelMarkReset) return this.sampled;
    try {
      return Math.max(this.sampled, statusField(this.pid, 'VmHWM'));
    } catch {
      return this.sampled;
    }
  }
}

function resetHighWaterMark(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
