import type { ChildProcess } from 'node:child_process';
import { repositoryRoot, startServerProcess } from '../../../apps/server/test/server-process.ts';

export { repositoryRoot };

export interface RunningServer {
  process: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

/**
 * The real server in a child process of its own (the process tests' `startServerProcess`), so
 * that its CPU time and memory can be read from /proc apart from the load generator's. Logins are
 * not rate-limited there: every virtual user signs in from 127.0.0.1.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 180_000): Promise<RunningServer> {
  // BENCH_SERVER_NODE_ARGS: extra Node options for the server only, e.g. a CPU profile of the run:
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/cdms-profiles" (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const server = await startServerProcess({ CDMS_DEMO: '0', ...env }, timeoutMs, nodeArgs);
  const child = server.process;
  // The last of the server's output, printed if it ends before the bench stops it: a server that
  // dies in the middle of a scenario otherwise leaves only a missing /proc entry behind.
  let lastOutput = '';
  const keep = (data: Buffer) => {
    lastOutput = (lastOutput + data.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let stopping = false;
  void server.exited.then((code) => {
    if (!stopping)
      console.error(`the server ${child.pid} ended by itself (${code}); its last output:\n${lastOutput}`);
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await server.exited;
    clearTimeout(timer);
  };
  if (child.pid === undefined) throw new Error('the server process has no pid');
  return { process: child, pid: child.pid, url: server.url, stop };
}
