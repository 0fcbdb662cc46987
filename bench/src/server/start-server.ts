import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

export interface RunningServer {
  process: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

/**
 * The real server (`apps/server/src/main.ts`, as `npm run serve` starts it) in a child process of
 * its own, so that its CPU time and memory can be read from /proc apart from the load generator's.
 * Same approach as apps/server/test/server-process.ts. Logins are not rate-limited: every virtual
 * user signs in from 127.0.0.1.
 */
export function startServer(env: Record<string, string>, timeoutMs = 180_000): Promise<RunningServer> {
  // BENCH_SERVER_NODE_ARGS: extra Node options for the server only, e.g. a CPU profile of the run:
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/cdms-profiles" (Node refuses --cpu-prof in NODE_OPTIONS).
  const extraNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...extraNodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '100000',
      CDMS_DEMO: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the server did not start:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Keep only the tail: a long run's warnings must not grow without bound.
      if (output.length > 20_000) output = output.slice(-10_000);
      const match = output.match(/running at (http:\/\/localhost:\d+)/);
      if (match?.[1] && child.pid !== undefined) {
        clearTimeout(timer);
        resolve({ process: child, pid: child.pid, url: match[1].replace('localhost', '127.0.0.1'), stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it started:\n${output}`));
    });
  });
}
