import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

// CPU time and memory of processes from Linux's /proc: utime + stime of /proc/<pid>/stat (in clock
// ticks, USER_HZ = 100 on Linux) and the resident set of /proc/<pid>/status.

const TICKS_PER_SECOND = 100;

function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const ticksToMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

/** CPU time (user + system) the process has used so far, in milliseconds. */
export function cpuMilliseconds(pid: number): number {
  const fields = statFields(pid);
  return ticksToMs(Number(fields[11]) + Number(fields[12]));
}

/**
 * CPU time of PostgreSQL on this machine: every live postgres process's own time, plus the time of
 * the ones that have ended (a backend's time moves to the postmaster's children's time when it is
 * reaped), so that a connection closing during a scenario does not take its time with it.
 */
export function postgresCpuMilliseconds(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) continue;
      const fields = statFields(entry);
      // utime, stime, cutime, cstime (fields 14–17 of stat).
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return ticksToMs(ticks);
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return match?.[1] ? Number(match[1]) * 1024 : 0;
}

/** The resident set now, in bytes. */
export function residentBytes(pid: number): number {
  return statusField(pid, 'VmRSS');
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
